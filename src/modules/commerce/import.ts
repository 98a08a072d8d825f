import type { Knex } from 'knex';
import { newId } from '../../lib/ids.js';
import type { Commerce, PlatformProduct } from '../../platforms/capabilities/commerce.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withCommerce } from './access.js';
import type { CatalogRow } from './rows.js';

/** A product read from the platform, as a row of ours (synced, as the platform has it). */
function importedRow(catalogId: string, product: PlatformProduct) {
  const { availability, ...fields } = product.fields;
  return {
    id: newId('prod'),
    catalogId,
    retailerId: product.retailerId,
    platformProductId: product.id,
    fields: JSON.stringify(fields),
    availability: availability ?? 'in stock',
    reviewStatus: product.reviewStatus,
    syncStatus: 'synced',
    syncOperation: 'create',
    syncErrors: JSON.stringify(product.issues),
    syncedAt: new Date(),
  };
}

/**
 * Records products as the platform shows them: new ones get their `prod_…`; known ones take the platform's id,
 * review and diagnostics, and its members unless a change of ours is still on its way there.
 */
export async function keepPlatformProducts(db: Knex, catalogId: string, products: PlatformProduct[]): Promise<void> {
  if (products.length === 0) return;
  const insert = db('commerceProducts')
    .insert(products.map((product) => importedRow(catalogId, product)))
    .toSQL();
  await db.raw(
    `${insert.sql} ON CONFLICT (catalog_id, retailer_id) WHERE deleted_at IS NULL DO UPDATE SET
       platform_product_id = excluded.platform_product_id,
       review_status = excluded.review_status,
       fields = CASE WHEN commerce_products.sync_status = 'pending' THEN commerce_products.fields ELSE excluded.fields END,
       availability = CASE WHEN commerce_products.sync_status = 'pending' THEN commerce_products.availability ELSE excluded.availability END,
       sync_errors = CASE WHEN commerce_products.sync_status = 'pending' THEN commerce_products.sync_errors ELSE excluded.sync_errors END,
       updated_at = now()`,
    insert.bindings,
  );
}

/** Retailer ids read back in one call (a filter the platform takes in its query string). */
const READ_BACK_CHUNK = 100;

/** The platform's view of the given products (those it no longer has are missing), a page of ids at a time. */
export async function readProducts(
  commerce: Commerce,
  account: AdapterAccount,
  platformCatalogId: string,
  retailerIds: string[],
): Promise<PlatformProduct[]> {
  const products: PlatformProduct[] = [];
  for (let start = 0; start < retailerIds.length; start += READ_BACK_CHUNK) {
    let after: string | null = null;
    do {
      const page = await commerce.products(account, platformCatalogId, {
        after,
        retailerIds: retailerIds.slice(start, start + READ_BACK_CHUNK),
      });
      products.push(...page.items);
      after = page.next;
    } while (after);
  }
  return products;
}

/** Reads every product of the catalog from the platform (page by page), keeping each page as it comes. */
async function readAll(db: Knex, commerce: Commerce, account: AdapterAccount, catalog: CatalogRow): Promise<number> {
  let after: string | null = null;
  let seen = 0;
  do {
    const page = await commerce.products(account, catalog.platformCatalogId, { after });
    await keepPlatformProducts(db, catalog.id, page.items);
    seen += page.items.length;
    after = page.next;
  } while (after);
  return seen;
}

/**
 * Imports the catalog: every product the platform has is recorded (those made elsewhere too), and products of
 * ours the platform no longer has, with no change of ours on its way, are marked deleted. The catalog then says
 * when its products were read, and how many there are.
 */
export async function importProducts(services: Services, principal: Principal, catalog: CatalogRow): Promise<CatalogRow> {
  const { db } = services;
  const now = ((await db.raw('SELECT now() AS now')).rows as Array<{ now: Date }>)[0]!.now;
  const seen = await withCommerce(services, principal, { accountId: catalog.accountId }, (commerce, account) =>
    readAll(db, commerce, account, catalog),
  );
  await db('commerceProducts')
    .where({ catalogId: catalog.id, syncStatus: 'synced' })
    .whereNull('deletedAt')
    .where('updatedAt', '<', now)
    .update({ deletedAt: db.fn.now(), syncOperation: 'delete' });
  const [row] = (await db('commerceCatalogs')
    .where({ id: catalog.id })
    .update({ productsReadAt: now, productCount: seen, updatedAt: db.fn.now() })
    .returning('*')) as CatalogRow[];
  return row!;
}

/** The catalog, imported first if its products were never read. */
export async function imported(services: Services, principal: Principal, catalog: CatalogRow): Promise<CatalogRow> {
  return catalog.productsReadAt ? catalog : importProducts(services, principal, catalog);
}
