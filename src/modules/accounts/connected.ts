import type { Knex } from 'knex';
import type { SecretBox } from '../../lib/secret-box.js';
import type { Credentials } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { emitEvent } from '../events/emit.js';
import { assertWithinPlan } from '../usage/limits.js';
import { accountEventData } from './events.js';
import type { Connection } from './models.js';

/** What a grant gives any connection, an account or an ad account. */
export interface Grant {
  scopes: string[];
  credentials: Credentials;
  tokenExpiresAt: Date | null;
  /** Who at the platform granted the token (see AccountRow.platformUserId). */
  platformUserId?: string | null;
}

/** What connecting (or connecting again) sets on a connection of either kind: its tokens, and no error left. */
export function connectedFields(secrets: SecretBox, grant: Grant, now = new Date()) {
  return {
    status: 'connected' as const,
    statusReason: null,
    scopes: grant.scopes,
    credentialsCiphertext: secrets.seal(JSON.stringify(grant.credentials)),
    tokenExpiresAt: grant.tokenExpiresAt,
    platformUserId: grant.platformUserId ?? null,
    connectedAt: now,
    lastError: null,
    updatedAt: now,
  };
}

/**
 * Writes a connection the caller may connect, `existing` being its row locked (or none): a new one, or one
 * connected again after a disconnection, counts against the plan; the same one repaired does not. `write`
 * patches `existing` or inserts the new row. Emits `account.connected`.
 */
export async function writeConnection<R extends Connection>(
  trx: Knex.Transaction,
  services: Services,
  ownerId: string,
  existing: R | undefined,
  write: (existing: R | undefined) => Promise<R>,
): Promise<R> {
  if (!existing || existing.status === 'disconnected') await assertWithinPlan(trx, services.config.usage, ownerId, 'connectedAccounts', 1);
  const row = await write(existing);
  await emitEvent(trx, { ownerId, profileId: row.profileId, name: 'account.connected', data: accountEventData(row, 'connected') });
  return row;
}
