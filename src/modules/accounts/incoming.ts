import type { Knex } from 'knex';
import { PlatformError } from '../../platforms/errors.js';
import type { PermissionRevoked } from '../../platforms/capabilities/webhooks.js';
import { recordPlatformOutcome } from './accounts.js';
import { AccountRow, AdAccountRow } from './models.js';

/** What names the connected accounts an incoming platform event is addressed to. */
interface Addressed {
  accountId: string | null;
  platformAccountId: string | null;
}

/**
 * The connected accounts an incoming platform event is addressed to: ours when the event names it, else every
 * connected account with the platform's id of it (a platform account may be connected by several owners, and
 * each of them receives the event).
 */
export async function accountsAddressedBy(db: Knex, platform: string, event: Addressed): Promise<AccountRow[]> {
  return (await accountsAddressedByEach(db, platform, [event]))[0]!;
}

const batchReads = new WeakMap<Knex.Transaction, WeakMap<readonly Addressed[], Promise<AccountRow[][]>>>();

/**
 * `accountsAddressedByEach` for a batch of incoming events, read once: the areas that handle the batch (messages
 * are stored, then automated) are handed the same events in the same transaction, and share the read.
 */
export function accountsAddressedInBatch(trx: Knex.Transaction, platform: string, events: readonly Addressed[]): Promise<AccountRow[][]> {
  let byEvents = batchReads.get(trx);
  if (!byEvents) batchReads.set(trx, (byEvents = new WeakMap()));
  let read = byEvents.get(events);
  if (!read) byEvents.set(events, (read = accountsAddressedByEach(trx, platform, events)));
  return read;
}

/** The accounts each of `events` is addressed to (as accountsAddressedBy), read in one statement. */
export async function accountsAddressedByEach(db: Knex, platform: string, events: readonly Addressed[]): Promise<AccountRow[][]> {
  const ids = [...new Set(events.flatMap(({ accountId }) => (accountId ? [accountId] : [])))];
  const platformIds = [
    ...new Set(events.flatMap(({ accountId, platformAccountId }) => (!accountId && platformAccountId ? [platformAccountId] : []))),
  ];
  if (ids.length === 0 && platformIds.length === 0) return events.map(() => []);
  const rows = await AccountRow.query(db)
    .whereNot({ status: 'disconnected' })
    .where((addressed) => {
      if (ids.length > 0) addressed.orWhereIn('id', ids);
      if (platformIds.length > 0)
        addressed.orWhere((atPlatform) => atPlatform.where({ platform }).whereIn('platformAccountId', platformIds));
    })
    .orderBy('id');
  return events.map(({ accountId, platformAccountId }) =>
    rows.filter((row) =>
      accountId
        ? row.id === accountId
        : platformAccountId !== null && row.platform === platform && row.platformAccountId === platformAccountId,
    ),
  );
}

/** The connected ad accounts with this id at the platform (an advertiser several owners connected reaches each of them). */
export async function adAccountsAddressedBy(db: Knex, platform: string, platformAdAccountId: string): Promise<AdAccountRow[]> {
  return AdAccountRow.query(db).where({ platform, platformAdAccountId }).whereNot({ status: 'disconnected' }).orderBy('id');
}

/**
 * The platform says the app lost its permission: the app removed revokes the whole grant (token_revoked); a
 * permission taken back leaves the rest (permission_missing). The accounts need a reconnection.
 */
export async function permissionRevoked(db: Knex, platform: string, event: PermissionRevoked): Promise<void> {
  const error =
    event.reason === 'token_revoked'
      ? new PlatformError('auth_expired', 'The user removed the app on the platform; its tokens are revoked.')
      : new PlatformError('permission_revoked', "The user removed the app's access on the platform.");
  if (event.platformUserId) return revokeGrant(db, platform, event, event.platformUserId, error);
  for (const row of await accountsAddressedBy(db, platform, event)) await recordPlatformOutcome(db, row.id, error);
  if (event.platformAdAccountId) {
    const adAccounts = AdAccountRow.query(db).where({ platform, platformAdAccountId: event.platformAdAccountId });
    for (const { id } of await adAccounts.whereNot({ status: 'disconnected' }).select('id')) await recordPlatformOutcome(db, id, error);
  }
}

/**
 * A person took back what they granted, and the platform names only them: every account and ad account
 * connected through their grant needs a reconnection, or only those of `platformAccountId` when it is named.
 */
async function revokeGrant(
  db: Knex,
  platform: string,
  event: PermissionRevoked,
  platformUserId: string,
  error: PlatformError,
): Promise<void> {
  const accounts = AccountRow.query(db).where({ platform, platformUserId }).whereNot({ status: 'disconnected' }).select('id');
  const adAccounts = AdAccountRow.query(db).where({ platform, platformUserId }).whereNot({ status: 'disconnected' }).select('id');
  if (event.platformAccountId) {
    accounts.where({ platformAccountId: event.platformAccountId });
    adAccounts.whereIn('platformAdAccountId', [event.platformAccountId, `act_${event.platformAccountId}`]);
  }
  for (const { id } of [...(await accounts), ...(await adAccounts)]) await recordPlatformOutcome(db, id, error);
}
