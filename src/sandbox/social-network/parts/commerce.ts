import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { applyBatch, feedOfProductApi, matches, review, type StoredBatch, type StoredCatalog } from '../commerce-store.js';
import { mountCommerceControls } from './commerce-controls.js';
import { mountCommerceObjects, parseFilter } from './commerce-objects.js';
import { defineSocialPart, type SocialNetwork } from '../part.js';
import type { Token } from '../state.js';

interface Shop {
  id: string;
  name: string;
  status: string;
  catalogId: string | null;
}

export interface CommerceKept {
  /** pageId → the business owning the page (null: none), and whether it is verified. */
  owners: Map<string, { businessId: string | null; verified: boolean }>;
  catalogs: Map<string, StoredCatalog>;
  /** pageId → its commerce account (merchant settings) and shops. */
  merchants: Map<string, { id: string; name: string; shops: Shop[] }>;
}

/** The catalogs' timings and faults (`loseNextAnswerOf`: the next call of that kind is done, its answer lost). */
export interface CommerceSettings {
  processMs: number;
  reviewMs: number;
  stuckBatches: number;
  loseNextBatchAnswer: boolean;
  loseNextAnswerOf: string | null;
}

const MAX_BATCH = 5000;
const FIELDS = 'id,retailer_id,name';

/** A product in the Graph's words: the product API's names beside the feed's, its review and what is wrong with it. */
function productView(product: StoredCatalog['products'] extends Map<string, infer P> ? P : never, reviewMs: number) {
  const { status, errors } = review(product, reviewMs);
  return {
    ...product.data,
    id: product.id,
    retailer_id: product.retailerId,
    name: product.data.title,
    url: product.data.link,
    image_url: product.data.image_link,
    review_status: status,
    errors,
  };
}

/**
 * Catalogs (Graph v26): the business behind a page (`GET /{page}?fields=business`), its owned and client
 * catalogs, products one at a time (`POST /{catalog}/products`, price in cents) and in `items_batch` handles
 * processed `processMs` later with per-line errors and warnings (`check_batch_request_status`), a review
 * (pending, then approved or rejected `reviewMs` after a change), product sets with the filter language's
 * evaluator, and the commerce accounts' shops. Every call needs `catalog_management`. Handles live in memory:
 * after a restart the platform no longer knows them. Faults: a business not verified, batches stuck in progress,
 * a batch's answer lost (done, the connection dropped), and the Graph's `fail-next` (throttling).
 */
export const commercePart = defineSocialPart<CommerceKept>({ key: 'commerce', mount: mountCommerce });

function mountCommerce(router: Router, { state, graph, base }: SocialNetwork, restored: CommerceKept | undefined) {
  const kept: CommerceKept = restored ?? { owners: new Map(), catalogs: new Map(), merchants: new Map() };
  const batches = new Map<string, StoredBatch>();
  const settings: CommerceSettings = { processMs: 150, reviewMs: 300, stuckBatches: 0, loseNextBatchAnswer: false, loseNextAnswerOf: null };
  const calls: Record<string, number> = {};
  const count = (kind: string) => (calls[kind] = (calls[kind] ?? 0) + 1);
  const loseAnswer = (ctx: RouterContext, kind: string) => {
    if (settings.loseNextAnswerOf !== kind) return false;
    settings.loseNextAnswerOf = null;
    ctx.req.socket.destroy();
    return true;
  };

  const ownerOf = (pageId: string) => {
    let owner = kept.owners.get(pageId);
    if (!owner) kept.owners.set(pageId, (owner = { businessId: `9${state.newId()}`, verified: true }));
    return owner;
  };
  /** The businesses the token's person reaches through the pages they manage. */
  const businessesOf = (token: Token) =>
    new Set(state.users.get(token.userId)!.pageIds.flatMap((pageId) => kept.owners.get(pageId)?.businessId ?? []));
  /** The token works for commerce (`catalog_management`), else an answer is written. */
  const commerceToken = (ctx: RouterContext): Token | null => {
    const token = graph.authenticate(ctx);
    if (!token) return null;
    if (!state.granted(token, 'catalog_management')) {
      graph.missingPermission(ctx, 'catalog_management');
      return null;
    }
    return token;
  };
  /** The catalog, its batches due processed first (in the order sent, read or not): the platform works on its own time. */
  const settled = (catalog: StoredCatalog): StoredCatalog => {
    for (const batch of batches.values())
      if (batch.catalogId === catalog.id && !batch.outcome && !batch.stuck && Date.now() >= batch.processAt)
        batch.outcome = applyBatch(catalog, batch, () => state.newId());
    return catalog;
  };
  const catalogFor = (ctx: RouterContext, token: Token): StoredCatalog | null => {
    const catalog = kept.catalogs.get(ctx.params.id!);
    if (!catalog || !businessesOf(token).has(catalog.businessId)) {
      graph.unknownObject(ctx, ctx.params.id!);
      return null;
    }
    return settled(catalog);
  };
  const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
  const catalogView = (catalog: StoredCatalog) => ({
    id: catalog.id,
    name: catalog.name,
    vertical: catalog.vertical,
    product_count: catalog.products.size,
    business: { id: catalog.businessId },
  });
  const setView = (catalog: StoredCatalog, set: { id: string; name: string; filter: Record<string, unknown> | null }) => ({
    id: set.id,
    name: set.name,
    filter: set.filter === null ? null : JSON.stringify(set.filter),
    product_count: [...catalog.products.values()].filter((p) => set.filter === null || matches(set.filter, p.data)).length,
  });

  /** A page's owning business (`fields=business`); the pages part answers every other read of a page. */
  router.get(`${base}/:id`, (ctx, next) => {
    const page = state.pages.get(ctx.params.id!);
    if (!page || !(graph.params(ctx).fields ?? '').split(',').includes('business')) return next();
    const token = graph.authenticate(ctx);
    if (!token) return;
    if (!state.users.get(token.userId)!.pageIds.includes(page.id)) return graph.unknownObject(ctx, page.id);
    const { businessId } = ownerOf(page.id);
    ctx.body = { id: page.id, ...(businessId ? { business: { id: businessId, name: `${page.name} Business` } } : {}) };
  });

  for (const edge of ['owned_product_catalogs', 'client_product_catalogs']) {
    router.get(`${base}/:id/${edge}`, (ctx) => {
      const token = commerceToken(ctx);
      if (!token) return;
      if (!businessesOf(token).has(ctx.params.id!)) return graph.unknownObject(ctx, ctx.params.id!);
      const owned = edge === 'owned_product_catalogs';
      const catalogs = owned ? [...kept.catalogs.values()].filter((c) => c.businessId === ctx.params.id) : [];
      ctx.body = graph.list(ctx, catalogs.reverse().map(catalogView), `${ctx.origin}${ctx.path}`);
    });
  }

  router.post(`${base}/:id/owned_product_catalogs`, (ctx) => {
    count('createCatalog');
    const token = commerceToken(ctx);
    if (!token) return;
    const businessId = ctx.params.id!;
    if (!businessesOf(token).has(businessId)) return graph.unknownObject(ctx, businessId);
    const owner = [...kept.owners.values()].find((o) => o.businessId === businessId)!;
    if (!owner.verified)
      return graph.fail(ctx, 400, 100, '(#100) The business must complete business verification before it can create catalogs.', {
        subcode: 2388001,
      });
    const params = graph.params(ctx);
    if (!params.name) return graph.fail(ctx, 400, 100, '(#100) The parameter name is required');
    const catalog: StoredCatalog = {
      id: state.newId(),
      businessId,
      name: params.name,
      vertical: params.vertical ?? 'commerce',
      products: new Map(),
      sets: new Map(),
    };
    kept.catalogs.set(catalog.id, catalog);
    ctx.body = { id: catalog.id };
  });

  /** One catalog (`fields` as asked); the id of anything else passes on. */
  router.get(`${base}/:id`, (ctx, next) => {
    if (!kept.catalogs.has(ctx.params.id!)) return next();
    const token = commerceToken(ctx);
    const catalog = token && catalogFor(ctx, token);
    if (!catalog) return;
    ctx.body = graph.pick(catalogView(catalog), graph.params(ctx).fields, 'id');
  });

  /** Deletes a catalog with its products and sets. */
  router.delete(`${base}/:id`, (ctx, next) => {
    if (!kept.catalogs.has(ctx.params.id!)) return next();
    count('deleteCatalog');
    const token = commerceToken(ctx);
    const catalog = token && catalogFor(ctx, token);
    if (!catalog) return;
    kept.catalogs.delete(catalog.id);
    if (loseAnswer(ctx, 'deleteCatalog')) return;
    ctx.body = { success: true };
  });

  router.get(`${base}/:id/products`, (ctx, next) => {
    if (!kept.catalogs.has(ctx.params.id!)) return next();
    count('listProducts');
    const token = commerceToken(ctx);
    const catalog = token && catalogFor(ctx, token);
    if (!catalog) return;
    const params = graph.params(ctx);
    let products = [...catalog.products.values()];
    try {
      const filter = params.filter ? (JSON.parse(params.filter) as Record<string, unknown>) : null;
      if (filter) products = products.filter((p) => matches(filter, p.data));
    } catch (error) {
      return graph.fail(ctx, 400, 100, `(#100) Invalid filter: ${(error as Error).message}`);
    }
    const views = products.map((p) => graph.pick(productView(p, settings.reviewMs), params.fields, FIELDS));
    ctx.body = graph.list(ctx, views, `${ctx.origin}${ctx.path}`);
  });

  /** One product through the product API: its names (`name`, `url`, `image_url`) and the price in cents. */
  router.post(`${base}/:id/products`, (ctx, next) => {
    if (!kept.catalogs.has(ctx.params.id!)) return next();
    count('createProduct');
    const token = commerceToken(ctx);
    const catalog = token && catalogFor(ctx, token);
    if (!catalog) return;
    const p = graph.params(ctx);
    if (!p.retailer_id) return graph.fail(ctx, 400, 100, '(#100) The parameter retailer_id is required');
    if (catalog.products.has(p.retailer_id))
      return graph.fail(ctx, 400, 10800, `(#10800) Duplicate retailer_id when attempting to create a store collection: ${p.retailer_id}`);
    if (!/^\d+$/.test(p.price ?? '') || !/^[A-Z]{3}$/.test(p.currency ?? ''))
      return graph.fail(ctx, 400, 100, '(#100) price must be an integer number of cents, with a currency');
    const batch: StoredBatch = {
      handle: '',
      catalogId: catalog.id,
      requests: [{ method: 'CREATE', data: feedOfProductApi(p) }],
      allowUpsert: false,
      processAt: 0,
      stuck: false,
      outcome: null,
    };
    const { errors } = applyBatch(catalog, batch, () => state.newId());
    if (errors[0]) return graph.fail(ctx, 400, 100, `(#100) ${errors[0].message}`);
    ctx.body = { id: catalog.products.get(p.retailer_id)!.id };
  });

  router.post(`${base}/:id/items_batch`, (ctx) => {
    count('itemsBatch');
    const token = commerceToken(ctx);
    const catalog = token && catalogFor(ctx, token);
    if (!catalog) return;
    const input = body(ctx);
    const requests = typeof input.requests === 'string' ? (JSON.parse(input.requests) as unknown) : input.requests;
    if (!Array.isArray(requests) || requests.length === 0) return graph.fail(ctx, 400, 100, '(#100) The parameter requests is required');
    if (requests.length > MAX_BATCH)
      return graph.fail(ctx, 400, 100, `(#100) A batch takes at most ${MAX_BATCH} requests; this one has ${requests.length}.`);
    const batch: StoredBatch = {
      handle: randomBytes(12).toString('base64url'),
      catalogId: catalog.id,
      requests: requests as StoredBatch['requests'],
      allowUpsert: String(input.allow_upsert ?? 'true') !== 'false',
      processAt: Date.now() + settings.processMs,
      stuck: settings.stuckBatches > 0,
      outcome: null,
    };
    if (batch.stuck) settings.stuckBatches -= 1;
    batches.set(batch.handle, batch);
    if (settings.loseNextBatchAnswer) {
      settings.loseNextBatchAnswer = false;
      ctx.req.socket.destroy();
      return;
    }
    ctx.body = { handles: [batch.handle], validation_status: [] };
  });

  router.get(`${base}/:id/check_batch_request_status`, (ctx) => {
    count('checkBatch');
    const token = commerceToken(ctx);
    const catalog = token && catalogFor(ctx, token);
    if (!catalog) return;
    const handle = graph.params(ctx).handle ?? '';
    const batch = batches.get(handle);
    if (!batch || batch.catalogId !== catalog.id)
      return graph.fail(ctx, 400, 100, `(#100) Invalid batch handle: ${handle}`, { subcode: 2490489 });
    const lines = (issues: Array<{ line: number; id: string; message: string }>) =>
      issues.map((i) => ({ line: i.line, id: i.id, message: i.message }));
    ctx.body = {
      data: [
        batch.outcome
          ? {
              handle,
              status: 'finished',
              errors_total_count: batch.outcome.errors.length,
              errors: lines(batch.outcome.errors),
              warnings: lines(batch.outcome.warnings),
            }
          : { handle, status: 'in_progress', errors_total_count: 0, errors: [], warnings: [] },
      ],
    };
  });

  router.get(`${base}/:id/product_sets`, (ctx) => {
    const token = commerceToken(ctx);
    const catalog = token && catalogFor(ctx, token);
    if (!catalog) return;
    const sets = [...catalog.sets.values()].reverse().map((set) => setView(catalog, set));
    ctx.body = graph.list(ctx, sets, `${ctx.origin}${ctx.path}`);
  });

  router.post(`${base}/:id/product_sets`, (ctx) => {
    const token = commerceToken(ctx);
    const catalog = token && catalogFor(ctx, token);
    if (!catalog) return;
    const params = graph.params(ctx);
    if (!params.name) return graph.fail(ctx, 400, 100, '(#100) The parameter name is required');
    let filter: Record<string, unknown> | null = null;
    try {
      filter = parseFilter(params.filter ?? '', catalog);
    } catch (error) {
      return graph.fail(ctx, 400, 100, `(#100) Invalid filter: ${(error as Error).message}`);
    }
    const set = { id: state.newId(), name: params.name, filter };
    catalog.sets.set(set.id, set);
    ctx.body = setView(catalog, set);
  });

  router.get(`${base}/:id/commerce_merchant_settings`, (ctx, next) => {
    const page = state.pages.get(ctx.params.id!);
    if (!page) return next();
    const token = commerceToken(ctx);
    if (!token) return;
    if (!state.users.get(token.userId)!.pageIds.includes(page.id)) return graph.unknownObject(ctx, page.id);
    const merchant = kept.merchants.get(page.id);
    const shops = (merchant?.shops ?? []).map((shop) => ({
      id: shop.id,
      name: shop.name,
      review_status: shop.status,
      product_catalog: shop.catalogId ? { id: shop.catalogId } : null,
      shop_url: shop.status === 'active' ? `https://social.example/shops/${shop.id}` : null,
    }));
    ctx.body = { data: merchant ? [{ id: merchant.id, display_name: merchant.name, shops: { data: shops } }] : [] };
  });

  mountCommerceObjects(router, { graph, base, catalogs: kept.catalogs, commerceToken, businessesOf, setView, count, loseAnswer });
  mountCommerceControls(router, kept, batches, settings, calls, () => state.newId(), settled);
  return { state: () => kept };
}
