import type { Knex } from 'knex';
import { PlatformError } from '../../platforms/errors.js';
import type { PermissionRevoked } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { recordPlatformOutcome } from './accounts.js';
import { markAdAccountNeedsReconnection } from './ad-accounts.js';
import { AccountRow, AdAccountRow } from './models.js';

/**
 * The connected accounts an incoming platform event is addressed to: ours when the event names it, else every
 * connected account with the platform's id of it (a platform account may be connected by several owners, and
 * each of them receives the event).
 */
export async function accountsAddressedBy(
  db: Knex,
  platform: string,
  event: { accountId: string | null; platformAccountId: string | null },
): Promise<AccountRow[]> {
  if (event.accountId) {
    const row = await AccountRow.query(db).findById(event.accountId);
    return row && row.status !== 'disconnected' ? [row] : [];
  }
  if (!event.platformAccountId) return [];
  return AccountRow.query(db).where({ platform, platformAccountId: event.platformAccountId }).whereNot({ status: 'disconnected' });
}

/**
 * The platform says the app lost its permission: the app removed revokes the whole grant (token_revoked); a
 * permission taken back leaves the rest (permission_missing). The accounts need a reconnection.
 */
export async function permissionRevoked(services: Services, platform: string, event: PermissionRevoked): Promise<void> {
  const error =
    event.reason === 'token_revoked'
      ? new PlatformError('auth_expired', 'The user removed the app on the platform; its tokens are revoked.')
      : new PlatformError('permission_revoked', "The user removed the app's access on the platform.");
  if (event.platformUserId) return revokeGrant(services, platform, event, event.platformUserId, error);
  for (const row of await accountsAddressedBy(services.db, platform, event)) await recordPlatformOutcome(services.db, row.id, error);
}

/**
 * A person took back what they granted, and the platform names only them: every account and ad account
 * connected through their grant needs a reconnection, or only those of `platformAccountId` when it is named.
 */
async function revokeGrant(
  services: Services,
  platform: string,
  event: PermissionRevoked,
  platformUserId: string,
  error: PlatformError,
): Promise<void> {
  const accounts = AccountRow.query(services.db).where({ platform, platformUserId }).whereNot({ status: 'disconnected' }).select('id');
  const adAccounts = AdAccountRow.query(services.db).where({ platform, platformUserId }).whereNot({ status: 'disconnected' }).select('id');
  if (event.platformAccountId) {
    accounts.where({ platformAccountId: event.platformAccountId });
    adAccounts.whereIn('platformAdAccountId', [event.platformAccountId, `act_${event.platformAccountId}`]);
  }
  for (const { id } of await accounts) await recordPlatformOutcome(services.db, id, error);
  const reason = error.kind === 'auth_expired' ? 'token_revoked' : 'permission_missing';
  for (const { id } of await adAccounts) await markAdAccountNeedsReconnection(services.db, id, reason, error.message);
}
