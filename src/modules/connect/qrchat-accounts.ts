import type { Knex } from 'knex';
import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Credentials } from '../../platforms/types.js';
import type { PairedDevice } from '../../platforms/qrchat/driver.js';
import type { Platforms } from '../../platforms/registry.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { emitEvent } from '../events/emit.js';
import { AccountAlreadyConnectedError, AccountConnectedElsewhereError, CapabilityUnsupportedError } from '../accounts/errors.js';
import { assertIdentityFree } from '../accounts/identity.js';
import { accountEventData } from '../accounts/events.js';
import { accountOnPlatform, insertAccount, lockAccount, patchAccount, patchAccounts } from '../accounts/api.js';
import type { AccountError, AccountRow } from '../accounts/models.js';

export function assertQrchat(account: AccountRow): void {
  if (account.platform !== 'qrchat')
    throw new CapabilityUnsupportedError(`${account.id} is a ${account.platform} account, not a qrchat account.`);
}

/**
 * The account a pairing is for: a new `pending` one in the profile, or the profile's qrchat account `accountId` put
 * back to `pending` (404 in another profile, 422 of another platform, 409 while it is connected).
 */
export async function pendingAccount(
  trx: Knex.Transaction,
  principal: Principal,
  input: {
    profileId: string;
    accountId?: string;
    phoneNumber: string | null;
  },
): Promise<{ row: AccountRow; created: boolean }> {
  const name = input.phoneNumber ?? 'Pending pairing';
  if (input.accountId) {
    const existing = await lockAccount(trx, input.accountId, principal.ownerId);
    if (!existing || existing.profileId !== input.profileId) throw new NotFoundError('account in this profile');
    assertQrchat(existing);
    if (existing.status === 'connected')
      throw new AccountAlreadyConnectedError(`${existing.id} is paired and connected; disconnect it before pairing it again.`);
    const updated = await patchAccount(trx, existing.id, {
      status: 'pending',
      statusReason: 'awaiting_pairing',
      name: existing.platformAccountId ? existing.name : name,
      lastError: null,
      updatedAt: new Date(),
    });
    return { row: updated!, created: false };
  }
  const inserted = await insertAccount(trx, {
    id: newId('acc'),
    ownerId: principal.ownerId,
    profileId: input.profileId,
    platform: 'qrchat',
    kind: 'phone_number',
    platformAccountId: null,
    name,
    username: null,
    avatarUrl: null,
    status: 'pending',
    statusReason: 'awaiting_pairing',
    scopes: [],
    credentialsCiphertext: null,
    tokenExpiresAt: null,
    connectedAt: null,
  });
  return { row: inserted, created: true };
}

/**
 * Pairing completed: the account is `connected` as the paired number and `account.connected` is emitted. The
 * number may be held already, as another account of the owner or by another owner (a linked device belongs to
 * one owner only: assertIdentityFree): then this pairing is refused ('taken') and the account says why.
 */
export async function markPaired(
  services: Pick<Services, 'db' | 'secrets' | 'platforms'>,
  accountId: string,
  device: PairedDevice,
): Promise<'connected' | 'taken' | 'gone'> {
  return services.db.transaction(async (trx) => {
    const row = await lockAccount(trx, accountId);
    if (!row || row.status === 'disconnected') return 'gone';
    // A paired session that reconnected (a restart, a new worker): nothing to announce; it is live again.
    if (row.status === 'connected' && row.platformAccountId === device.phoneNumber) {
      if (row.platformProblem) await patchAccount(trx, row.id, { platformProblem: null });
      return 'connected';
    }
    const refusal = await pairingRefusal(trx, services.platforms, row, device.phoneNumber);
    if (refusal) {
      const lastError: AccountError = { code: 'platform_error', platformCode: null, at: new Date().toISOString(), message: refusal };
      await patchAccount(trx, row.id, { statusReason: 'pairing_expired', lastError: lastError as never, updatedAt: new Date() });
      return 'taken';
    }
    const credentials: Credentials = { accessToken: device.deviceId, extra: { accountId, name: device.name } };
    const now = new Date();
    const updated = await patchAccount(trx, accountId, {
      status: 'connected',
      statusReason: null,
      platformAccountId: device.phoneNumber,
      name: device.name.slice(0, 255) || `+${device.phoneNumber}`,
      credentialsCiphertext: services.secrets.seal(JSON.stringify(credentials)),
      connectedAt: now,
      lastSuccessAt: now,
      lastError: null,
      updatedAt: now,
    });
    await emitEvent(trx, {
      ownerId: updated!.ownerId,
      profileId: updated!.profileId,
      name: 'account.connected',
      data: accountEventData(updated!, 'connected'),
    });
    return 'connected';
  });
}

/** Why the number cannot be this account's: another account of the owner has it (in any status), or another owner. */
async function pairingRefusal(trx: Knex.Transaction, platforms: Platforms, row: AccountRow, phoneNumber: string): Promise<string | null> {
  const other = await accountOnPlatform(trx, { ownerId: row.ownerId, platform: 'qrchat', platformAccountId: phoneNumber }, row.id);
  if (other) return `+${phoneNumber} is connected already as ${other.id}; pair that account again (accountId) instead.`;
  try {
    await assertIdentityFree(trx, platforms, {
      ownerId: row.ownerId,
      profileId: row.profileId,
      platform: 'qrchat',
      platformAccountId: phoneNumber,
    });
    return null;
  } catch (error) {
    if (error instanceof AccountConnectedElsewhereError) return `+${phoneNumber}: ${error.detail}`;
    throw error;
  }
}

/**
 * The phone logged the session out (or it broke beyond repair): the device is gone, so are its credentials; a
 * connected account needs pairing again and `account.needs_reconnection` says so (never `account.disconnected`).
 */
export async function markLoggedOut(db: Knex, accountId: string, detail: string): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await lockAccount(trx, accountId);
    if (!row || row.status !== 'connected') return;
    const lastError: AccountError = { code: 'session_logged_out', message: detail, platformCode: '401', at: new Date().toISOString() };
    await patchAccount(trx, accountId, {
      status: 'needs_reconnection',
      statusReason: 'session_logged_out',
      credentialsCiphertext: null,
      lastError: lastError as never,
      updatedAt: new Date(),
    });
    await emitEvent(trx, {
      ownerId: row.ownerId,
      profileId: row.profileId,
      name: 'account.needs_reconnection',
      data: accountEventData(row, 'needs_reconnection', 'session_logged_out', detail),
    });
  });
}

/** What a paired account says while its session is not open (the service let go of it at its stop). */
const RESUMING = 'The linked device is not connected: the service is resuming its session, and messages wait until it is open.';

/** The service let go of these paired sessions: until each is open again, its account says so (markPaired clears it). */
export async function markResuming(db: Knex, accountIds: string[]): Promise<void> {
  if (accountIds.length === 0) return;
  await patchAccounts(db, accountIds, { platformProblem: RESUMING, updatedAt: new Date() }, 'connected');
}

/** The pairing window ended unscanned: the account stays `pending`, now with `pairing_expired`. */
export async function markWindowExpired(db: Knex, accountId: string): Promise<void> {
  await patchAccount(db, accountId, { statusReason: 'pairing_expired', updatedAt: new Date() }, 'pending');
}
