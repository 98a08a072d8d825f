import { type Page, pageRequest, toPage } from '../../lib/pagination.js';
import { idOf, newId } from '../../lib/ids.js';
import { CommerceObjectGone, type PlatformCatalog } from '../../platforms/capabilities/commerce.js';
import type { Services } from '../../services.js';
import type { AccountRow } from '../accounts/models.js';
import { ownerAccountsOn } from '../accounts/api.js';
import { findAccount } from '../accounts/read.js';
import { listedProfiles, type Principal } from '../auth/principal.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { commercePlatforms, findCatalog, withCommerce } from './access.js';
import { CatalogNotFoundError, CommerceBusinessRequiredError } from './errors.js';
import { type CommerceCatalog, presentCatalog } from './present.js';
import type { CatalogRow } from './rows.js';

/** Records the catalogs as the platform shows them through the account (a `cat_…` for each new one); answers their rows. */
async function keepCatalogs(services: Services, account: AccountRow, catalogs: PlatformCatalog[]): Promise<CatalogRow[]> {
  if (catalogs.length === 0) return [];
  const { db } = services;
  return (await db('commerceCatalogs')
    .insert(
      catalogs.map((catalog) => ({
        id: newId('cat'),
        ownerId: account.ownerId,
        profileId: account.profileId,
        accountId: account.id,
        platform: account.platform,
        platformCatalogId: catalog.id,
        businessId: catalog.businessId,
        name: catalog.name,
        vertical: catalog.vertical,
        productCount: catalog.productCount,
      })),
    )
    .onConflict(['accountId', 'platformCatalogId'])
    .merge(['name', 'vertical', 'productCount', 'businessId', 'updatedAt'])
    .returning('*')) as CatalogRow[];
}

/** Reads the catalogs of the page's business (owned and client) from the platform and records them. */
async function readCatalogs(services: Services, principal: Principal, account: AccountRow): Promise<void> {
  const catalogs = await withCommerce(services, principal, account, async (commerce, platformAccount) => {
    const businessId = await commerce.pageBusiness(platformAccount);
    return businessId ? commerce.catalogs(platformAccount, businessId) : [];
  });
  await keepCatalogs(services, account, catalogs);
}

/**
 * The catalogs reached through the owner's page accounts, newest first. The first page reads them from the
 * platform first (new ones get their `cat_…`); an account that cannot be read then (not connected, a permission
 * missing) is left out unless it is the one asked for, which answers its problem.
 */
export async function listCatalogs(
  services: Services,
  principal: Principal,
  query: { profileId?: string; accountId?: string; limit?: number; cursor?: string },
): Promise<Page<CommerceCatalog>> {
  const { db } = services;
  const page = pageRequest(query);
  const profiles = await listedProfiles(db, principal, query.profileId);
  if (query.accountId) {
    const account = await findAccount(db, principal, idOf('acc', query.accountId));
    if (!page.after) await readCatalogs(services, principal, account);
  } else if (!page.after) {
    const accounts = await ownerAccountsOn(db, principal.ownerId, commercePlatforms(services), profiles);
    await Promise.all(accounts.map((account) => readCatalogs(services, principal, account).catch(() => undefined)));
  }
  const rows = db('commerceCatalogs').where({ ownerId: principal.ownerId });
  if (profiles) rows.whereIn('profileId', profiles);
  if (query.accountId) rows.where({ accountId: query.accountId });
  if (page.after) rows.where('id', '<', page.after);
  return toPage((await rows.orderBy('id', 'desc').limit(page.limit + 1)) as CatalogRow[], page, presentCatalog);
}

/**
 * Creates a catalog owned by the page's business (or `businessId`) and records it, once per write key: after a
 * lost answer, a catalog of that name the business has and we have no record of is the one made.
 */
export async function createCatalog(
  services: Services,
  principal: Principal,
  input: { accountId: string; businessId?: string; name: string; vertical?: string },
  key: string,
): Promise<CommerceCatalog> {
  const vertical = input.vertical ?? 'commerce';
  const [row] = await withCommerce(services, principal, { accountId: input.accountId }, async (commerce, platformAccount, account) => {
    const businessId = input.businessId ?? (await commerce.pageBusiness(platformAccount));
    if (!businessId) throw new CommerceBusinessRequiredError();
    const written = await writeOnce(services.db, {
      ownerId: account.ownerId,
      accountId: account.id,
      key,
      kind: 'catalog.create',
      request: { ...input, vertical, businessId },
      send: () => commerce.createCatalog(platformAccount, businessId, { name: input.name, vertical }),
      reconcile: async () => {
        const known = new Set(
          ((await services.db('commerceCatalogs').where({ accountId: account.id }).select('platformCatalogId')) as CatalogRow[]).map(
            (catalog) => catalog.platformCatalogId,
          ),
        );
        const catalogs = await commerce.catalogs(platformAccount, businessId);
        return catalogs.find((catalog) => catalog.name === input.name && !known.has(catalog.id)) ?? null;
      },
      store: async () => {},
    });
    return keepCatalogs(services, account, [written.result]);
  });
  return presentCatalog(row!);
}

/** One catalog, read from the platform first (its name and product count as they are now). */
export async function getCatalog(services: Services, principal: Principal, id: string): Promise<CommerceCatalog> {
  const catalog = await findCatalog(services, principal, id);
  const [row] = await withCommerce(services, principal, { accountId: catalog.accountId }, async (commerce, platformAccount, account) =>
    keepCatalogs(services, account, [await commerce.catalog(platformAccount, catalog.platformCatalogId)]),
  );
  return presentCatalog(row!);
}

/**
 * Deletes the catalog on the platform, then our records of it (its products, sets and batches go with them), in the
 * commit that settles the write. A catalog is deleted once, so the write's key is the catalog's own: a retry after
 * a lost answer asks the platform whether the catalog is still there (gone: deleted then; there: sent again). A
 * catalog deleted on the platform by other means is forgotten too, and answers 404 `catalog_not_found`.
 */
export async function deleteCatalog(services: Services, principal: Principal, id: string): Promise<void> {
  const catalog = await findCatalog(services, principal, id);
  const platformCatalogId = catalog.platformCatalogId;
  const written = await withCommerce(services, principal, { accountId: catalog.accountId }, (commerce, platformAccount, account) =>
    writeOnce(services.db, {
      ownerId: account.ownerId,
      accountId: account.id,
      key: `catalog.delete:${platformCatalogId}`,
      kind: 'catalog.delete',
      request: { platformCatalogId },
      send: async () => {
        try {
          await commerce.deleteCatalog(platformAccount, platformCatalogId);
          return { goneBefore: false };
        } catch (error) {
          if (error instanceof CommerceObjectGone) return { goneBefore: true };
          throw error;
        }
      },
      reconcile: async () => {
        try {
          await commerce.catalog(platformAccount, platformCatalogId);
          return null;
        } catch (error) {
          if (error instanceof CommerceObjectGone) return { goneBefore: false };
          throw error;
        }
      },
      store: async (trx) => {
        await trx('commerceCatalogs').where({ id: catalog.id }).delete();
      },
    }),
  );
  if (written.result.goneBefore) throw new CatalogNotFoundError();
}
