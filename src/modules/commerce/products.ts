import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, pageRequest, toPage } from '../../lib/pagination.js';
import type { ProductFields } from '../../platforms/capabilities/commerce.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { findCatalog, writeProduct } from './access.js';
import { assertKnownCurrency } from './batches.js';
import { ProductRejectedError, ProductRetailerIdTakenError } from './errors.js';
import { imported, importProducts } from './import.js';
import { type CommerceProduct, presentProduct } from './present.js';
import type { ProductRow } from './rows.js';

export type ProductInput = ProductFields & { catalogId: string; retailerId: string };

/** The catalog's live product with this retailer id, if any. */
async function liveProduct(services: Services, catalogId: string, retailerId: string): Promise<ProductRow | undefined> {
  return (await services.db('commerceProducts').where({ catalogId, retailerId }).whereNull('deletedAt').first()) as ProductRow | undefined;
}

/**
 * Creates one product on the platform and records it, synced (`key`: the write's, so a retry after a lost answer
 * finds the product on the platform rather than making another). A retailer id the catalog has is a 409; a
 * product the platform refuses, a 422 with its reason, and nothing is recorded.
 */
export async function createProduct(services: Services, principal: Principal, input: ProductInput, key: string): Promise<CommerceProduct> {
  const catalog = await imported(services, principal, await findCatalog(services, principal, input.catalogId));
  const { catalogId: _catalog, retailerId, ...fields } = input;
  if (await liveProduct(services, catalog.id, retailerId)) throw new ProductRetailerIdTakenError(retailerId);
  assertKnownCurrency(fields);
  const { availability, ...kept } = fields;
  const id = newId('prod');
  await writeProduct<{ id: string }>(
    services,
    principal,
    catalog,
    (commerce, account) => ({
      key,
      kind: 'product.create',
      request: input,
      send: () => commerce.createProduct(account, catalog.platformCatalogId, retailerId, fields),
      reconcile: async () => {
        const found = await commerce.products(account, catalog.platformCatalogId, { after: null, retailerIds: [retailerId] });
        return found.items[0] ? { id: found.items[0].id } : null;
      },
      store: async (trx, created) => {
        await trx('commerceProducts').insert({
          id,
          catalogId: catalog.id,
          retailerId,
          platformProductId: created.id,
          fields: JSON.stringify(kept),
          availability,
          reviewStatus: 'pending',
          syncStatus: 'synced',
          syncOperation: 'create',
          syncedAt: trx.fn.now(),
        });
      },
    }),
    (error) => (error.retailerIdTaken ? new ProductRetailerIdTakenError(retailerId) : new ProductRejectedError(error.message)),
  );
  const row = await liveProduct(services, catalog.id, retailerId);
  if (!row) throw new NotFoundError('product');
  return presentProduct(row);
}

export interface ProductQuery {
  catalogId: string;
  batchId?: string;
  retailerId?: string;
  availability?: string;
  syncStatus?: string;
  reviewStatus?: string;
  refresh?: boolean;
  limit?: number;
  cursor?: string;
}

/**
 * The catalog's products from our records, newest first, with the filters asked for; imported from the platform
 * first when they were never read, or when `refresh` asks for it. With `batchId`: the products the batch touched,
 * deleted ones included.
 */
export async function listProducts(services: Services, principal: Principal, query: ProductQuery): Promise<Page<CommerceProduct>> {
  const { db } = services;
  const page = pageRequest(query);
  let catalog = await findCatalog(services, principal, query.catalogId);
  if (!page.after)
    catalog = query.refresh ? await importProducts(services, principal, catalog) : await imported(services, principal, catalog);
  const rows = db('commerceProducts').where({ catalogId: catalog.id });
  if (query.batchId) {
    const batch = await db('commerceBatches').where({ id: query.batchId, catalogId: catalog.id }).first('id');
    if (!batch) throw new NotFoundError('batch');
    rows.whereIn('id', db('commerceBatchItems').where({ batchId: query.batchId }).whereNotNull('productId').select('productId'));
  } else rows.whereNull('deletedAt');
  if (query.retailerId) rows.where({ retailerId: query.retailerId });
  if (query.availability) rows.where({ availability: query.availability });
  if (query.syncStatus) rows.where({ syncStatus: query.syncStatus });
  if (query.reviewStatus) rows.where({ reviewStatus: query.reviewStatus });
  if (page.after) rows.where('id', '<', page.after);
  return toPage((await rows.orderBy('id', 'desc').limit(page.limit + 1)) as ProductRow[], page, presentProduct);
}
