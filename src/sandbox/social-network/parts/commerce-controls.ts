import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { applyBatch, type StoredBatch, type StoredCatalog } from '../commerce-store.js';
import type { CommerceKept, CommerceSettings } from './commerce.js';

/** The people's side: who owns a page, shops set up in the commerce manager, products made on the platform, faults, counts. */
export function mountCommerceControls(
  router: Router,
  kept: CommerceKept,
  batches: Map<string, StoredBatch>,
  settings: CommerceSettings,
  calls: Record<string, number>,
  newId: () => string,
  settled: (catalog: StoredCatalog) => StoredCatalog,
): void {
  const input = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
  router.post('/_sandbox/social_network/commerce/page-owner', (ctx) => {
    const { pageId, business = true, verified = true } = input(ctx) as { pageId: string; business?: boolean; verified?: boolean };
    kept.owners.set(pageId, { businessId: business ? `9${newId()}` : null, verified });
    ctx.body = kept.owners.get(pageId);
  });
  router.post('/_sandbox/social_network/commerce/settings', (ctx) => {
    Object.assign(settings, input(ctx));
    ctx.body = settings;
  });
  router.post('/_sandbox/social_network/commerce/shops', (ctx) => {
    const {
      pageId,
      name,
      status = 'active',
      catalogId = null,
    } = input(ctx) as { pageId: string; name: string; status?: string; catalogId?: string | null };
    const merchant = kept.merchants.get(pageId) ?? { id: newId(), name, shops: [] };
    const shop = { id: newId(), name, status, catalogId };
    merchant.shops.push(shop);
    kept.merchants.set(pageId, merchant);
    ctx.status = 201;
    ctx.body = { ...shop, merchantSettingsId: merchant.id };
  });
  /** Someone adds products in the commerce manager (feed names), as if by hand. */
  router.post('/_sandbox/social_network/commerce/catalogs/:id/products', (ctx) => {
    const catalog = kept.catalogs.get(ctx.params.id!);
    if (!catalog) return void ((ctx.status = 404), (ctx.body = { error: 'no such catalog' }));
    const products = input(ctx).products as Array<Record<string, unknown>>;
    const outcome = applyBatch(
      catalog,
      {
        handle: '',
        catalogId: catalog.id,
        requests: products.map((data) => ({ method: 'CREATE', data })),
        allowUpsert: true,
        processAt: 0,
        stuck: false,
        outcome: null,
      },
      newId,
    );
    ctx.body = outcome;
  });
  router.get('/_sandbox/social_network/commerce/catalogs/:id', (ctx) => {
    const catalog = kept.catalogs.get(ctx.params.id!);
    if (!catalog) return void ((ctx.status = 404), (ctx.body = { error: 'no such catalog' }));
    settled(catalog);
    ctx.body = { ...catalog, products: [...catalog.products.values()], sets: [...catalog.sets.values()] };
  });
  /** Someone deletes a catalog in the commerce manager. */
  router.post('/_sandbox/social_network/commerce/catalogs/:id/delete', (ctx) => {
    ctx.body = { deleted: kept.catalogs.delete(ctx.params.id!) };
  });
  router.post('/_sandbox/social_network/commerce/forget-handles', (ctx) => {
    batches.clear();
    ctx.body = { handles: 0 };
  });
  router.get('/_sandbox/social_network/commerce/calls', (ctx) => {
    ctx.body = { calls, handles: batches.size };
  });
}
