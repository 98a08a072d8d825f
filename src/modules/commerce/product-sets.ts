import { type FieldError, ValidationFailedError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, pageRequest, toPage } from '../../lib/pagination.js';
import type { PlatformProductSet, SetFilter } from '../../platforms/capabilities/commerce.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { findCatalog, withCommerce } from './access.js';
import { type CommerceProductSet, presentProductSet } from './present.js';
import type { CatalogRow, ProductSetRow } from './rows.js';

/** Records the sets as the platform shows them (a `pset_…` for each new one); a filter ours cannot say keeps what we had. */
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
    await keepSets(services, catalog, sets);
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
