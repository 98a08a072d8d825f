import type { Knex } from 'knex';
import type { PartialModelObject } from 'objection';
import { AccountRow, type AccountStatus, ProfileRow } from './models.js';

// What other areas read and write of the accounts area's tables (profiles, accounts, ad accounts), beside the
// reads of ./read.ts. Nothing here checks the caller's scope: the callers have.

/** Which of `ids` are profiles of the owner, deleted ones left out (the others are for the caller to refuse). */
export async function ownedProfileIds(db: Knex, ownerId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set((await ProfileRow.query(db).where({ ownerId, deletedAt: null }).whereIn('id', ids).select('id')).map((row) => row.id));
}

/** The owner's first profile (by id), if it has one. */
export async function firstProfileId(db: Knex, ownerId: string): Promise<string | undefined> {
  return (await ProfileRow.query(db).where({ ownerId, deletedAt: null }).orderBy('id').first().select('id'))?.id;
}

/**
 * Locks the profile's row until the transaction ends: what is limited per profile (its automations, its queue
 * slots) is then counted and added by one transaction at a time.
 */
export async function lockProfile(trx: Knex.Transaction, profileId: string): Promise<void> {
  await ProfileRow.query(trx).findById(profileId).forUpdate().select('id');
}

/** How many profiles the owner has (among `profileIds`, when given). */
export async function profileCount(db: Knex, ownerId: string, profileIds?: string[] | null): Promise<number> {
  const query = ProfileRow.query(db).where({ ownerId, deletedAt: null });
  if (profileIds) query.whereIn('id', profileIds);
  return query.resultSize();
}

/** How many accounts and ad accounts the owner has that are not disconnected (in `profileIds`, when given). */
export async function connectedAccountCount(db: Knex, ownerId: string, profileIds?: string[] | null): Promise<number> {
  const counts = await Promise.all(
    ['accounts', 'adAccounts'].map(async (table) => {
      const query = db(table).where({ ownerId }).whereNot({ status: 'disconnected' });
      if (profileIds) query.whereIn('profileId', profileIds);
      const [row] = (await query.count({ n: '*' })) as Array<{ n: string | number }>;
      return Number(row!.n);
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** The connected accounts of these platforms (only `accountId`, when given). */
export async function connectedAccountsOn(db: Knex, platforms: string[], accountId?: string): Promise<AccountRow[]> {
  const query = AccountRow.query(db).where({ status: 'connected' }).whereIn('platform', platforms);
  return accountId ? query.where({ id: accountId }) : query;
}

/** The ids of the accounts in one of `statuses`: a subquery for the caller's query (or awaited, the ids). */
export function accountIdsWith(db: Knex, statuses: AccountStatus[]): Knex.QueryBuilder {
  return db('accounts').whereIn('status', statuses).select('id');
}

/** The account, locked until the transaction ends; only the owner's, when `ownerId` is given. */
export async function lockAccount(trx: Knex.Transaction, id: string, ownerId?: string): Promise<AccountRow | undefined> {
  return AccountRow.query(trx)
    .findOne({ id, ...(ownerId ? { ownerId } : {}) })
    .forUpdate();
}

/** The owner's account of that platform with that platform id, other than `exceptId`. */
export async function accountOnPlatform(
  db: Knex,
  where: { ownerId: string; platform: string; platformAccountId: string },
  exceptId: string,
): Promise<AccountRow | undefined> {
  return AccountRow.query(db).findOne(where).whereNot({ id: exceptId });
}

/** Stores a new account; answers it as stored. */
export async function insertAccount(trx: Knex.Transaction, row: PartialModelObject<AccountRow>): Promise<AccountRow> {
  return AccountRow.query(trx).insertAndFetch(row);
}

/** Changes the accounts (only those in `status`, when given); answers them as changed. */
export async function patchAccounts(
  db: Knex,
  ids: string[],
  patch: PartialModelObject<AccountRow>,
  status?: AccountStatus,
): Promise<AccountRow[]> {
  return AccountRow.query(db)
    .patch(patch)
    .whereIn('id', ids)
    .where(status ? { status } : {})
    .returning('*');
}

/** Changes the account (only while it is in `status`, when given); answers it as changed, if it was. */
export async function patchAccount(
  db: Knex,
  id: string,
  patch: PartialModelObject<AccountRow>,
  status?: AccountStatus,
): Promise<AccountRow | undefined> {
  const [row] = await patchAccounts(db, [id], patch, status);
  return row;
}

/** The owner's connected accounts of these platforms (of `profileIds` only, when given), oldest first. */
export async function ownerAccountsOn(db: Knex, ownerId: string, platforms: string[], profileIds: string[] | null): Promise<AccountRow[]> {
  const query = AccountRow.query(db).where({ ownerId, status: 'connected' }).whereIn('platform', platforms);
  if (profileIds) query.whereIn('profileId', profileIds);
  return query.orderBy('id');
}
