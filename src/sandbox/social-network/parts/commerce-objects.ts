import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { applyBatch, feedOfProductApi, matches, type StoredCatalog } from '../commerce-store.js';
import type { Graph } from '../graph.js';
import type { Token } from '../state.js';

type StoredSet = StoredCatalog['sets'] extends Map<string, infer S> ? S : never;

/** What the catalogs' objects share with the commerce part. */
export interface CommerceObjectsDeps {
  graph: Graph;
  base: string;
  catalogs: Map<string, StoredCatalog>;
  commerceToken: (ctx: RouterContext) => Token | null;
  businessesOf: (token: Token) => Set<string>;
  setView: (catalog: StoredCatalog, set: StoredSet) => Record<string, unknown>;
  count: (kind: string) => void;
  /** Whether the answer to this call is to be lost (the call done, the connection dropped): then it is. */
  loseAnswer: (ctx: RouterContext, kind: string) => boolean;
}

/** A filter as the Graph takes it (JSON of the filter language; empty: every product), checked by the evaluator. */
export function parseFilter(raw: string, catalog: StoredCatalog): Record<string, unknown> | null {
  const filter = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
  if (filter) matches(filter, {});
  for (const product of catalog.products.values()) if (filter) matches(filter, product.data);
  return filter;
}

/**
 * The catalogs' objects by their own ids (Graph v26): a product item changed through the product API
 * (`POST /{product-item-id}`, its names and prices in cents; an empty member cleared), and a product set read,
 * renamed or given a new filter (`POST /{product-set-id}`), or deleted. An id that is none of these passes on.
 */
export function mountCommerceObjects(router: Router, deps: CommerceObjectsDeps): void {
  const { graph, base, catalogs } = deps;
  /** The catalog holding the product item or set, if the token reaches its business (else the answer is written). */
  const owning = (ctx: RouterContext, find: (catalog: StoredCatalog) => boolean): StoredCatalog | null => {
    const catalog = [...catalogs.values()].find(find);
    if (!catalog) return null;
    const token = deps.commerceToken(ctx);
    if (!token) return null;
    if (!deps.businessesOf(token).has(catalog.businessId)) {
      graph.unknownObject(ctx, ctx.params.id!);
      return null;
    }
    return catalog;
  };
  const productOf = (catalog: StoredCatalog, id: string) => [...catalog.products.values()].find((product) => product.id === id);
  const holdsProduct = (ctx: RouterContext) => (catalog: StoredCatalog) => productOf(catalog, ctx.params.id!) !== undefined;
  const holdsSet = (ctx: RouterContext) => (catalog: StoredCatalog) => catalog.sets.has(ctx.params.id!);

  router.post(`${base}/:id`, (ctx, next) => {
    if (![...catalogs.values()].some(holdsProduct(ctx))) return next();
    deps.count('updateProduct');
    const catalog = owning(ctx, holdsProduct(ctx));
    if (!catalog) return;
    const product = productOf(catalog, ctx.params.id!)!;
    const params = graph.params(ctx);
    if ((params.price || params.sale_price) && !/^[A-Z]{3}$/.test(params.currency ?? ''))
      return graph.fail(ctx, 400, 100, '(#100) A price needs its currency');
    for (const member of ['price', 'sale_price'])
      if (params[member] && !/^\d+$/.test(params[member]))
        return graph.fail(ctx, 400, 100, `(#100) ${member} must be an integer number of cents`);
    const data = { ...feedOfProductApi({ ...params, retailer_id: undefined }), id: product.retailerId };
    const batch = { handle: '', catalogId: catalog.id, requests: [{ method: 'UPDATE', data }] };
    const { errors } = applyBatch(catalog, { ...batch, allowUpsert: false, processAt: 0, stuck: false, outcome: null }, () => product.id);
    if (errors[0]) return graph.fail(ctx, 400, 100, `(#100) ${errors[0].message}`);
    if (deps.loseAnswer(ctx, 'updateProduct')) return;
    ctx.body = { success: true };
  });

  router.get(`${base}/:id`, (ctx, next) => {
    if (![...catalogs.values()].some(holdsSet(ctx))) return next();
    const catalog = owning(ctx, holdsSet(ctx));
    if (!catalog) return;
    ctx.body = graph.pick(deps.setView(catalog, catalog.sets.get(ctx.params.id!)!), graph.params(ctx).fields, 'id');
  });

  router.post(`${base}/:id`, (ctx, next) => {
    if (![...catalogs.values()].some(holdsSet(ctx))) return next();
    deps.count('updateProductSet');
    const catalog = owning(ctx, holdsSet(ctx));
    if (!catalog) return;
    const set = catalog.sets.get(ctx.params.id!)!;
    const params = graph.params(ctx);
    let filter = set.filter;
    try {
      if (params.filter !== undefined) filter = parseFilter(params.filter, catalog);
    } catch (error) {
      return graph.fail(ctx, 400, 100, `(#100) Invalid filter: ${(error as Error).message}`);
    }
    catalog.sets.set(set.id, { ...set, name: params.name ?? set.name, filter });
    ctx.body = { success: true };
  });

  router.delete(`${base}/:id`, (ctx, next) => {
    if (![...catalogs.values()].some(holdsSet(ctx))) return next();
    deps.count('deleteProductSet');
    const catalog = owning(ctx, holdsSet(ctx));
    if (!catalog) return;
    catalog.sets.delete(ctx.params.id!);
    ctx.body = { success: true };
  });
}
