import { type Handler, principalOf } from '../../http/handler.js';
import type { ProductFields } from '../../platforms/capabilities/commerce.js';
import { writeKey } from '../platform-writes/write-key.js';
import { createBatch, findBatch, type BatchRequest } from './batches.js';
import { createCatalog as createOne, deleteCatalog as deleteOne, getCatalog as getOne, listCatalogs as listAll } from './catalogs.js';
import { deleteProducts as deleteSome } from './delete.js';
import { importProductFeed as importFeed } from './feed.js';
import { getProduct as getOneProduct, updateProduct as updateOneProduct } from './product-item.js';
import {
  createProductSet as createSet,
  deleteProductSet as deleteSet,
  getProductSet as getSet,
  listProductSets as listSets,
  updateProductSet as updateSet,
} from './product-sets.js';
import { createProduct as createProductOnce, listProducts as listAllProducts, type ProductInput } from './products.js';
import { listShops as listAllShops } from './shops.js';

export const listCatalogs: Handler<'listCatalogs'> = async (request, services) => ({
  status: 200,
  body: await listAll(services, principalOf(request), request.query ?? {}),
});

export const createCatalog: Handler<'createCatalog'> = async (request, services) => ({
  status: 201,
  body: await createOne(services, principalOf(request), request.body, writeKey(request, 'catalog.create')),
});

export const getCatalog: Handler<'getCatalog'> = async (request, services) => ({
  status: 200,
  body: await getOne(services, principalOf(request), request.params.catalogId),
});

export const deleteCatalog: Handler<'deleteCatalog'> = async (request, services) => {
  await deleteOne(services, principalOf(request), request.params.catalogId);
  return { status: 204, body: undefined };
};

export const listProducts: Handler<'listProducts'> = async (request, services) => ({
  status: 200,
  body: await listAllProducts(services, principalOf(request), request.query),
});

export const createProduct: Handler<'createProduct'> = async (request, services) => ({
  status: 201,
  body: await createProductOnce(services, principalOf(request), request.body as ProductInput, writeKey(request, 'product.create')),
});

export const getProduct: Handler<'getProduct'> = async (request, services) => ({
  status: 200,
  body: await getOneProduct(services, principalOf(request), request.params.productId),
});

export const updateProduct: Handler<'updateProduct'> = async (request, services) => ({
  status: 200,
  body: await updateOneProduct(
    services,
    principalOf(request),
    request.params.productId,
    request.body as ProductFields,
    writeKey(request, 'product.update'),
  ),
});

export const deleteProducts: Handler<'deleteProducts'> = async (request, services) => {
  const batch = await deleteSome(services, principalOf(request), request.query);
  return batch ? { status: 202, body: batch } : { status: 204 };
};

export const batchProducts: Handler<'batchProducts'> = async (request, services) => ({
  status: 202,
  body: await createBatch(services, principalOf(request), request.body as { catalogId: string; requests: BatchRequest[] }),
});

export const getProductBatch: Handler<'getProductBatch'> = async (request, services) => ({
  status: 200,
  body: await findBatch(services, principalOf(request), request.params.batchId),
});

export const listProductSets: Handler<'listProductSets'> = async (request, services) => ({
  status: 200,
  body: await listSets(services, principalOf(request), request.query),
});

export const createProductSet: Handler<'createProductSet'> = async (request, services) => ({
  status: 201,
  body: await createSet(services, principalOf(request), request.body, writeKey(request, 'product_set.create')),
});

export const getProductSet: Handler<'getProductSet'> = async (request, services) => ({
  status: 200,
  body: await getSet(services, principalOf(request), request.params.productSetId),
});

export const updateProductSet: Handler<'updateProductSet'> = async (request, services) => ({
  status: 200,
  body: await updateSet(services, principalOf(request), request.params.productSetId, request.body),
});

export const deleteProductSet: Handler<'deleteProductSet'> = async (request, services) => {
  await deleteSet(services, principalOf(request), request.params.productSetId);
  return { status: 204, body: undefined };
};

export const listShops: Handler<'listShops'> = async (request, services) => ({
  status: 200,
  body: await listAllShops(services, principalOf(request), request.query ?? {}),
});

export const importProductFeed: Handler<'importProductFeed'> = async (request, services) => ({
  status: 202,
  body: await importFeed(services, principalOf(request), request.body),
});
