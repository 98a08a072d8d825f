import { type ApiError, NotFoundError } from '../../lib/errors.js';
import { idOf } from '../../lib/ids.js';
import { type Commerce, ProductRefused } from '../../platforms/capabilities/commerce.js';
import type { PlatformError } from '../../platforms/errors.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import type { AccountRow } from '../accounts/models.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import { findAccount } from '../accounts/read.js';
import { assertProfileInScope, type Principal } from '../auth/principal.js';
import { type PlatformWrite, writeOnce, type Written } from '../platform-writes/ledger.js';
import type { CatalogRow } from './rows.js';

/** The platforms whose accounts reach catalogs: those with the commerce capability. */
export function commercePlatforms(services: Services): string[] {
  return services.platforms.all().flatMap((adapter) => (adapter.commerce ? [adapter.id] : []));
}

/**
 * A commerce call through a page account (or the account of a catalog): the caller's, on a platform with catalogs,
 * connected, and granted what catalogs need (422 `permission_missing` names it and says to reconnect).
 */
export async function withCommerce<T>(
  services: Services,
  principal: Principal,
  target: { accountId: string } | AccountRow,
  call: (commerce: Commerce, account: AdapterAccount, row: AccountRow) => Promise<T>,
  handle?: (error: PlatformError) => void,
): Promise<T> {
  const row = 'platform' in target ? target : await findAccount(services.db, principal, idOf('acc', target.accountId));
  return withConnectedAccount(services, principal, row, 'commerce', (adapter, account, found) => call(adapter.commerce, account, found), {
    scopes: services.platforms.capability(row.platform, 'commerce')?.scopes ?? [],
    unsupported: (platform) => `${platform} accounts reach no product catalogs: catalogs are on social_network page accounts.`,
    ...(handle ? { handle } : {}),
  });
}

/**
 * A write of one product through the catalog's account, once per key (see writeOnce): `write` makes it with the
 * platform's means; a product the platform refuses fails as `refused` says.
 */
export function writeProduct<Result>(
  services: Services,
  principal: Principal,
  catalog: CatalogRow,
  write: (commerce: Commerce, account: AdapterAccount) => Omit<PlatformWrite<Result>, 'ownerId' | 'accountId'>,
  refused: (error: ProductRefused) => ApiError,
): Promise<Written<Result>> {
  return withCommerce(
    services,
    principal,
    { accountId: catalog.accountId },
    (commerce, account, row) => writeOnce(services.db, { ownerId: row.ownerId, accountId: row.id, ...write(commerce, account) }),
    (error) => {
      if (error instanceof ProductRefused) throw refused(error);
    },
  );
}

/** The owner's catalog (404 for another's, 403 outside the key's profiles). */
export async function findCatalog(services: Services, principal: Principal, id: string): Promise<CatalogRow> {
  const row = (await services.db('commerceCatalogs').where({ id, ownerId: principal.ownerId }).first()) as CatalogRow | undefined;
  if (!row) throw new NotFoundError('catalog');
  assertProfileInScope(principal, row.profileId);
  return row;
}
