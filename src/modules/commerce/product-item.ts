import { NotFoundError } from '../../lib/errors.js';
import type { ProductFields } from '../../platforms/capabilities/commerce.js';
import type { Services } from '../../services.js';
import { assertProfileInScope, type Principal } from '../auth/principal.js';
import { withCommerce, writeProduct } from './access.js';
import { assertKnownCurrency, pricedChange } from './batches.js';
import { ProductNotOnPlatformError, ProductRejectedError, ProductSyncPendingError } from './errors.js';
import { keepPlatformProducts, readProducts } from './import.js';
import { type CommerceProduct, presentProduct } from './present.js';
import type { CatalogRow, ProductRow } from './rows.js';

/** The owner's live product and its catalog (404 for another's or a deleted one, 403 outside the key's profiles). */
async function findProduct(services: Services, principal: Principal, id: string): Promise<{ product: ProductRow; catalog: CatalogRow }> {
  const { db } = services;
  const product = (await db('commerceProducts')
    .where({ id })
    .whereNull('deletedAt')
    .whereIn('catalogId', db('commerceCatalogs').where({ ownerId: principal.ownerId }).select('id'))
    .first()) as ProductRow | undefined;
  if (!product) throw new NotFoundError('product');
  const catalog = (await db('commerceCatalogs').where({ id: product.catalogId }).first()) as CatalogRow;
  assertProfileInScope(principal, catalog.profileId);
  return { product, catalog };
}

async function present(services: Services, id: string): Promise<CommerceProduct> {
  return presentProduct((await services.db('commerceProducts').where({ id }).first()) as ProductRow);
}

/** One product; one the platform has is read from it first (its review and diagnostics as they are now). */
export async function getProduct(services: Services, principal: Principal, id: string): Promise<CommerceProduct> {
  const { product, catalog } = await findProduct(services, principal, id);
  if (product.platformProductId) {
    const read = await withCommerce(services, principal, { accountId: catalog.accountId }, (commerce, account) =>
      readProducts(commerce, account, catalog.platformCatalogId, [product.retailerId]),
    );
    await keepPlatformProducts(services.db, catalog.id, read);
  }
  return present(services, id);
}

/**
 * Changes members of a product on the platform, then in our records, in the commit that settles the write (`key`:
 * the write's). The platform sets the members to the values sent, so a change whose answer was lost is sent
 * again rather than looked for. The platform reviews the product again. A product a batch is still changing, or
 * one the platform never took, is a 409; a change the platform refuses, a 422 with its reason, and nothing changes.
 */
export async function updateProduct(
  services: Services,
  principal: Principal,
  id: string,
  change: ProductFields,
  key: string,
): Promise<CommerceProduct> {
  const { product, catalog } = await findProduct(services, principal, id);
  if (product.syncStatus === 'pending') throw new ProductSyncPendingError(product.syncBatchId);
  if (!product.platformProductId) throw new ProductNotOnPlatformError();
  assertKnownCurrency(change);
  const current = { ...product.fields, availability: product.availability } as ProductFields;
  const sent = pricedChange(change, current);
  const { availability, ...fields } = { ...current, ...change };
  await writeProduct(
    services,
    principal,
    catalog,
    (commerce, account) => ({
      key,
      kind: 'product.update',
      request: { productId: id, change: sent },
      send: async () => {
        await commerce.updateProduct(account, product.platformProductId!, sent);
        return { updated: true };
      },
      reconcile: async () => null,
      store: async (trx) => {
        await trx('commerceProducts')
          .where({ id })
          .update({
            fields: JSON.stringify(fields),
            availability,
            reviewStatus: 'pending',
            syncStatus: 'synced',
            syncOperation: 'update',
            syncBatchId: null,
            syncErrors: '[]',
            syncedAt: trx.fn.now(),
            updatedAt: trx.fn.now(),
          });
      },
    }),
    (error) => new ProductRejectedError(error.message),
  );
  return present(services, id);
}
