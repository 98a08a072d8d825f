import { PlatformError } from '../../platforms/errors.js';
import type { IncomingEvent, IncomingMessage, PermissionRevoked } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { recordPlatformOutcome } from '../accounts/accounts.js';
import { markAdAccountNeedsReconnection } from '../accounts/ad-accounts.js';
import { AccountRow, AdAccountRow } from '../accounts/models.js';
import { storeIncomingMessage } from '../messaging/inbound.js';
import { recordPostMadePublic } from '../publishing/made-public.js';
import { PROCESS_JOB } from './receive.js';

interface StoredWebhook {
  id: string;
  platform: string;
  sourceAccountId: string | null;
  body: string;
  processedAt: Date | null;
}

async function accountsFor(services: Services, platform: string, event: { accountId: string | null; platformAccountId: string | null }) {
  if (event.accountId) return [await AccountRow.query(services.db).findById(event.accountId)];
  if (!event.platformAccountId) return [];
  // A platform account may be connected by several owners; each of them receives the event.
  return AccountRow.query(services.db).where({ platform, platformAccountId: event.platformAccountId }).whereNot({ status: 'disconnected' });
}

async function handle(services: Services, platform: string, event: IncomingEvent): Promise<void> {
  if (event.kind === 'message') {
    const rows = event.accountId
      ? [await AccountRow.query(services.db).findById(event.accountId)]
      : await AccountRow.query(services.db).where({ platform, platformAccountId: event.platformAccountId }).whereNot({ status: 'disconnected' });
    for (const row of rows) if (row && row.status !== 'disconnected') await storeIncomingMessage(services.db, row, event as IncomingMessage);
    return;
  }
  if (event.kind === 'post_public') return recordPostMadePublic(services.db, platform, event);
  // The app removed revokes the whole grant (token_revoked); a permission taken back leaves the rest (permission_missing).
  const error = event.reason === 'token_revoked'
    ? new PlatformError('auth_expired', 'The user removed the app on the platform; its tokens are revoked.')
    : new PlatformError('permission_revoked', 'The user removed the app\'s access on the platform.');
  if (event.platformUserId) return revokeGrant(services, platform, event, error);
  for (const row of await accountsFor(services, platform, event)) if (row) await recordPlatformOutcome(services.db, row.id, error);
}

/**
 * A person took back what they granted, and the platform names only them: every account and ad account
 * connected through their grant needs a reconnection, or only those of `platformAccountId` when it is named.
 */
async function revokeGrant(services: Services, platform: string, event: PermissionRevoked, error: PlatformError): Promise<void> {
  const accounts = AccountRow.query(services.db).where({ platform, platformUserId: event.platformUserId! }).whereNot({ status: 'disconnected' }).select('id');
  const adAccounts = AdAccountRow.query(services.db).where({ platform, platformUserId: event.platformUserId! }).whereNot({ status: 'disconnected' }).select('id');
  if (event.platformAccountId) {
    accounts.where({ platformAccountId: event.platformAccountId });
    adAccounts.whereIn('platformAdAccountId', [event.platformAccountId, `act_${event.platformAccountId}`]);
  }
  for (const { id } of await accounts) await recordPlatformOutcome(services.db, id, error);
  const reason = error.kind === 'auth_expired' ? 'token_revoked' : 'permission_missing';
  for (const { id } of await adAccounts) await markAdAccountNeedsReconnection(services.db, id, reason, error.message);
}

/** Turns one stored platform webhook into our records and events; running it twice changes nothing more. */
export async function processWebhook(services: Services, id: string): Promise<void> {
  const stored = await services.db('platformWebhooks').where({ id }).first() as StoredWebhook | undefined;
  if (!stored || stored.processedAt) return;
  const receiver = services.platforms.get(stored.platform)?.webhooks;
  try {
    const events = receiver ? receiver.parse(stored.body, { accountId: stored.sourceAccountId }) : [];
    for (const event of events) await handle(services, stored.platform, event);
    await services.db('platformWebhooks').where({ id }).update({ processedAt: services.db.fn.now(), error: null });
  } catch (error) {
    await services.db('platformWebhooks').where({ id }).update({ error: (error as Error).message.slice(0, 2000) });
    throw error;
  }
}

/** Webhooks stored but never processed (the process died between storing and enqueueing) get another go. */
export async function sweepWebhooks(services: Services): Promise<void> {
  const stale = await services.db('platformWebhooks').whereNull('processedAt')
    .where('receivedAt', '<', services.db.raw("now() - interval '1 minute'")).limit(500).select('id') as Array<{ id: string }>;
  for (const { id } of stale) await services.scheduler.now(PROCESS_JOB, { id: String(id) });
}
