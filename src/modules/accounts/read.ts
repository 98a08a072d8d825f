import type { Knex } from 'knex';
import { readsById } from '../../lib/batcher.js';
import { onePer } from '../../lib/memo.js';
import { NotFoundError } from '../../lib/errors.js';
import { type AccountId, type AdAccountId, idOf } from '../../lib/ids.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AdapterAccount, Credentials } from '../../platforms/types.js';
import { assertProfileInScope, type Principal } from '../auth/principal.js';
import { AccountNotConnectedError, AccountNotInProfileError } from './errors.js';
import { AccountRow, AdAccountRow, type Connection, isAdAccountId, nounOf, platformIdOf } from './models.js';

// How other areas read accounts: the `accounts` and `ad_accounts` tables are this area's alone.

/** Accounts read on the pool at about the same time (a worker's many sends) are read in one query. */
const accountReads = onePer((db: Knex) => readsById(async (ids): Promise<AccountRow[]> => AccountRow.query(db).whereIn('id', ids)));

/** The owner's account, or 404; 403 when it belongs to a profile outside the caller's key. */
export async function findAccount(db: Knex, principal: Principal, id: AccountId): Promise<AccountRow> {
  const row = db.isTransaction ? await accountById(db, id) : await accountReads(db).add(id);
  return checkedConnection(principal, row, 'account');
}

/** The owner's ad account, or 404; 403 when it belongs to a profile outside the caller's key. */
export async function findAdAccount(db: Knex, principal: Principal, id: AdAccountId): Promise<AdAccountRow> {
  return checkedConnection(principal, await AdAccountRow.query(db).findById(id), 'ad account');
}

/** The connection `id` names, checked as findAccount checks an account. */
export function findConnection(db: Knex, principal: Principal, id: AccountId | AdAccountId): Promise<Connection> {
  return isAdAccountId(id) ? findAdAccount(db, principal, id) : findAccount(db, principal, id);
}

/** A row read already (or not found: undefined), checked as findAccount checks it: the owner's, within the caller's key. */
export function checkedConnection<R extends Connection>(principal: Principal, row: R | undefined, noun: 'account' | 'ad account'): R {
  if (!row || row.ownerId !== principal.ownerId) throw new NotFoundError(noun);
  assertProfileInScope(principal, row.profileId);
  return row;
}

/** An account by id, whoever owns it: for work the service does on its own (jobs, platform webhooks). */
export async function accountById(db: Knex, id: AccountId): Promise<AccountRow | undefined> {
  return AccountRow.query(db).findById(id);
}

/** An account or an ad account by id, whoever owns it: for work the service does on its own (a lead to read). */
export async function connectionById(db: Knex, id: AccountId | AdAccountId): Promise<Connection | undefined> {
  return isAdAccountId(id) ? AdAccountRow.query(db).findById(id) : accountById(db, id);
}

/** Accounts by id, whoever owns them (a batch of work). */
export async function accountsById(db: Knex, ids: AccountId[]): Promise<AccountRow[]> {
  return ids.length === 0 ? [] : AccountRow.query(db).whereIn('id', ids);
}

/**
 * The caller's owner's accounts among `ids`, in no order (anyone else's are left out, for the caller to refuse as
 * unknown); 403 when one belongs to a profile outside the caller's key.
 */
export async function ownedAccounts(db: Knex, principal: Principal, ids: AccountId[]): Promise<AccountRow[]> {
  const rows = ids.length === 0 ? [] : await AccountRow.query(db).where({ ownerId: principal.ownerId }).whereIn('id', ids);
  for (const row of rows) assertProfileInScope(principal, row.profileId);
  return rows;
}

/**
 * The accounts `ids` names, in that order, each of the profile `profileId`: 404 for one not the caller's owner's,
 * 403 for one outside the caller's key, 422 `account_not_in_profile` (at `path`) for one of another profile.
 */
export async function profileAccounts(
  db: Knex,
  principal: Principal,
  profileId: string,
  ids: string[],
  path?: string,
): Promise<AccountRow[]> {
  const rows = new Map(
    (
      await ownedAccounts(
        db,
        principal,
        ids.map((id) => idOf('acc', id)),
      )
    ).map((row) => [row.id as string, row]),
  );
  return ids.map((id) => {
    const row = rows.get(id);
    if (!row) throw new NotFoundError('account');
    if (row.profileId !== profileId) throw new AccountNotInProfileError(id, path);
    return row;
  });
}

/** The owner's accounts of `platform` with these platform ids, disconnected ones too (`profileId`: of that profile only). */
export async function accountsAtPlatform(
  db: Knex,
  ownerId: string,
  platform: string,
  platformAccountIds: string[],
  profileId?: string,
): Promise<AccountRow[]> {
  if (platformAccountIds.length === 0) return [];
  const query = AccountRow.query(db).where({ ownerId, platform }).whereIn('platformAccountId', platformAccountIds);
  if (profileId) query.where({ profileId });
  return query;
}

/** The owner's ad accounts of `platform` with these platform ids, disconnected ones too (`profileId`: of that profile only). */
export async function adAccountsAtPlatform(
  db: Knex,
  ownerId: string,
  platform: string,
  platformAdAccountIds: string[],
  profileId?: string,
): Promise<AdAccountRow[]> {
  if (platformAdAccountIds.length === 0) return [];
  const query = AdAccountRow.query(db).where({ ownerId, platform }).whereIn('platformAdAccountId', platformAdAccountIds);
  if (profileId) query.where({ profileId });
  return query;
}

/** The ids of every owner's accounts with this id at the platform, whatever their status. */
export async function accountIdsAt(db: Knex, platform: string, platformAccountId: string): Promise<AccountId[]> {
  return (await AccountRow.query(db).where({ platform, platformAccountId }).select('id')).map((row) => row.id);
}

/** Every owner's accounts with this id at the platform that hold credentials (a webhook names its account only so). */
export async function credentialedAccountsAt(db: Knex, platform: string, platformAccountId: string): Promise<AccountRow[]> {
  return AccountRow.query(db).where({ platform, platformAccountId }).whereNotNull('credentialsCiphertext');
}

/** What an adapter is given of an account or ad account: its platform id and its opened credentials; 409 when it has none. */
export function adapterAccount(row: Connection, secrets: SecretBox): AdapterAccount {
  const platformAccountId = platformIdOf(row);
  if (!row.credentialsCiphertext || !platformAccountId) {
    throw new AccountNotConnectedError(`The ${nounOf(row.id)} has no working credentials; connect it again.`);
  }
  return { platformAccountId, credentials: JSON.parse(secrets.open(row.credentialsCiphertext)) as Credentials };
}
