import { type FieldError, NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, pageRequest, toPage } from '../../lib/pagination.js';
import { CommerceObjectGone, type PlatformProductSet, type SetFilter } from '../../platforms/capabilities/commerce.js';
import type { Services } from '../../services.js';
import { assertProfileInScope, type Principal } from '../auth/principal.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { findCatalog, withCommerce } from './access.js';
import { type CommerceProductSet, presentProductSet } from './present.js';
import type { CatalogRow, ProductSetRow } from './rows.js';

/**
 * Records the sets as given (a `pset_…` for each new one). Callers pass each set through withKnownFilter first, so
 * that a platform rule our syntax cannot say keeps the filter we knew.
 */
async function keepSets(services: Services, catalog: CatalogRow, sets: PlatformProductSet[]): Promise<ProductSetRow[]> {
  if (sets.length === 0) return [];
  return (await services
    .db('commerceProductSets')
    .insert(
      sets.map((set) => ({
        id: newId('pset'),
        catalogId: catalog.id,
        platformProductSetId: set.id,
        name: set.name,
        filter: set.filter === null ? null : JSON.stringify(set.filter),
        productCount: set.productCount,
      })),
    )
    .onConflict(['catalogId', 'platformProductSetId'])
    .merge(['name', 'filter', 'productCount', 'updatedAt'])
    .returning('*')) as ProductSetRow[];
}

/** The set as the platform reads it, with the filter we knew where the platform's is a rule our syntax cannot say. */
function withKnownFilter(read: PlatformProductSet, known: SetFilter | null): PlatformProductSet {
  return read.readable ? read : { ...read, filter: known };
}

/** The catalog's product sets, newest first; the first page reads them (and their counts) from the platform first. */
export async function listProductSets(
  services: Services,
  principal: Principal,
  query: { catalogId: string; limit?: number; cursor?: string },
): Promise<Page<CommerceProductSet>> {
  const page = pageRequest(query);
  const catalog = await findCatalog(services, principal, query.catalogId);
  if (!page.after) {
    const sets = await withCommerce(services, principal, { accountId: catalog.accountId }, (commerce, account) =>
      commerce.productSets(account, catalog.platformCatalogId),
    );
    const stored = (await services.db('commerceProductSets').where({ catalogId: catalog.id })) as ProductSetRow[];
    const known = new Map(stored.map((row) => [row.platformProductSetId, row.filter]));
    await keepSets(
      services,
      catalog,
      sets.map((set) => withKnownFilter(set, known.get(set.id) ?? null)),
    );
  }
  const rows = services.db('commerceProductSets').where({ catalogId: catalog.id });
  if (page.after) rows.where('id', '<', page.after);
  return toPage((await rows.orderBy('id', 'desc').limit(page.limit + 1)) as ProductSetRow[], page, presentProductSet);
}

/** 400 for a condition without what its operator compares with: `values` for `is_any`/`is_not_any`, else `value`. */
function assertComparable(filter: SetFilter | null): void {
  const errors: FieldError[] = [];
  filter?.conditions.forEach((condition, index) => {
    const list = condition.operator === 'is_any' || condition.operator === 'is_not_any';
    const wanted = list ? 'values' : 'value';
    if (condition[wanted] === undefined || condition[list ? 'value' : 'values'] !== undefined)
      errors.push({ path: `body/filter/conditions/${index}`, code: 'operand', message: `${condition.operator} takes ${wanted} (only).` });
  });
  if (errors.length > 0) throw new ValidationFailedError(errors);
}

/** Creates the set on the platform (its filter in the platform's language) and records it, once per write key. */
export async function createProductSet(
  services: Services,
  principal: Principal,
  input: { catalogId: string; name: string; filter?: SetFilter | null },
  key: string,
): Promise<CommerceProductSet> {
  const filter = input.filter ?? null;
  assertComparable(filter);
  const catalog = await findCatalog(services, principal, input.catalogId);
  const created = await withCommerce(services, principal, { accountId: catalog.accountId }, async (commerce, account, row) => {
    const written = await writeOnce(services.db, {
      ownerId: row.ownerId,
      accountId: row.id,
      key,
      kind: 'product_set.create',
      request: input,
      send: () => commerce.createProductSet(account, catalog.platformCatalogId, { name: input.name, filter }),
      reconcile: async (since) => {
        const known = new Set(
          (
            await services
              .db('commerceProductSets')
              .where({ catalogId: catalog.id })
              .where('createdAt', '<', since)
              .select('platformProductSetId')
          ).map((set: { platformProductSetId: string }) => set.platformProductSetId),
        );
        const sets = await commerce.productSets(account, catalog.platformCatalogId);
        return sets.find((set) => set.name === input.name && !known.has(set.id)) ?? null;
      },
      store: async () => {},
    });
    return written.result;
  });
  const [row] = await keepSets(services, catalog, [{ ...created, filter }]);
  return presentProductSet(row!);
}

/** The owner's product set and its catalog (404 for another's, 403 outside the key's profiles). */
async function findSet(services: Services, principal: Principal, id: string): Promise<{ set: ProductSetRow; catalog: CatalogRow }> {
  const { db } = services;
  const set = (await db('commerceProductSets')
    .where({ id })
    .whereIn('catalogId', db('commerceCatalogs').where({ ownerId: principal.ownerId }).select('id'))
    .first()) as ProductSetRow | undefined;
  if (!set) throw new NotFoundError('product set');
  const catalog = (await db('commerceCatalogs').where({ id: set.catalogId }).first()) as CatalogRow;
  assertProfileInScope(principal, catalog.profileId);
  return { set, catalog };
}

/** The platform's answer, or null when it has no such object (any more). */
function unlessGone<T>(call: Promise<T>): Promise<T | null> {
  return call.catch((error: unknown) => {
    if (error instanceof CommerceObjectGone) return null;
    throw error;
  });
}

/** A set the platform no longer has is forgotten here too, and answers 404. */
async function forgetGone(services: Services, set: ProductSetRow): Promise<never> {
  await services.db('commerceProductSets').where({ id: set.id }).delete();
  throw new NotFoundError('product set');
}

/** One product set, read from the platform first (its name, filter and count as they are now). */
export async function getProductSet(services: Services, principal: Principal, id: string): Promise<CommerceProductSet> {
  const { set, catalog } = await findSet(services, principal, id);
  const read = await withCommerce(services, principal, { accountId: catalog.accountId }, (commerce, account) =>
    unlessGone(commerce.productSet(account, set.platformProductSetId)),
  );
  if (!read) return forgetGone(services, set);
  const [row] = await keepSets(services, catalog, [withKnownFilter(read, set.filter)]);
  return presentProductSet(row!);
}

/**
 * Renames the set or changes its filter on the platform (the filter mapped to the platform's language, as on
 * create), then records it with the platform's count of the products the filter now matches.
 */
export async function updateProductSet(
  services: Services,
  principal: Principal,
  id: string,
  change: { name?: string; filter?: SetFilter | null },
): Promise<CommerceProductSet> {
  if (change.filter !== undefined) assertComparable(change.filter);
  const { set, catalog } = await findSet(services, principal, id);
  const updated = await withCommerce(services, principal, { accountId: catalog.accountId }, (commerce, account) =>
    unlessGone(commerce.updateProductSet(account, set.platformProductSetId, change)),
  );
  if (!updated) return forgetGone(services, set);
  const filter = change.filter !== undefined ? change.filter : updated.readable ? updated.filter : set.filter;
  const [row] = await keepSets(services, catalog, [{ ...updated, filter }]);
  return presentProductSet(row!);
}

/** Deletes the set on the platform (one already gone there is forgotten all the same), then our record of it. */
export async function deleteProductSet(services: Services, principal: Principal, id: string): Promise<void> {
  const { set, catalog } = await findSet(services, principal, id);
  await withCommerce(services, principal, { accountId: catalog.accountId }, (commerce, account) =>
    unlessGone(commerce.deleteProductSet(account, set.platformProductSetId)),
  );
  await services.db('commerceProductSets').where({ id: set.id }).delete();
}
