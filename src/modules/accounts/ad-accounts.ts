import type { Knex } from 'knex';
import { assertWithinPlan } from '../usage/limits.js';
import type { components } from '../../../generated/api.js';
import { newId } from '../../lib/ids.js';
import type { Page, PageRequest } from '../../lib/pagination.js';
import type { Credentials } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { emitEvent } from '../events/emit.js';
import { listed } from './accounts.js';
import { AccountAlreadyConnectedError } from './errors.js';
import { accountEventData } from './events.js';
import { AdAccountRow } from './models.js';
import { presentAdAccount } from './present.js';
import { findProfile } from './profiles.js';

type AdAccount = components['schemas']['AdAccount'];

export async function listAdAccounts(
  db: Knex,
  principal: Principal,
  page: PageRequest,
  filters: {
    profileId?: string;
    platform?: string;
    status?: string;
  },
): Promise<Page<AdAccount>> {
  return listed(AdAccountRow.query(db), db, principal, page, filters, presentAdAccount);
}

export interface GrantedAdAccount {
  platformAdAccountId: string;
  name: string;
  currency: string;
  timezone: string;
  platformStatus: AdAccount['platformStatus'];
  tokenExpiresAt: Date | null;
  credentials: Credentials;
  /** What the grant behind the token holds (the seam checks an ads call's scopes against it). */
  scopes: string[];
  /** Who at the platform granted the token (see AccountRow.platformUserId). */
  platformUserId?: string | null;
}

/**
 * Creates the ad account, or reconnects the same one of the same profile (same id, new tokens, the last error
 * cleared); in another profile it is a 409. Emits `account.connected` with
 * `accountType: ad_account`. Runs inside `outer` when given.
 */
export async function saveConnectedAdAccount(
  services: Services,
  principal: Principal,
  profileId: string,
  platform: AdAccountRow['platform'],
  granted: GrantedAdAccount,
  outer?: Knex.Transaction,
): Promise<AdAccountRow> {
  return (outer ?? services.db).transaction(async (trx) => {
    await findProfile(trx, principal, profileId);
    const existing = await AdAccountRow.query(trx)
      .forUpdate()
      .findOne({ ownerId: principal.ownerId, platform, platformAdAccountId: granted.platformAdAccountId });
    if (existing && existing.profileId !== profileId && existing.status !== 'disconnected') {
      throw new AccountAlreadyConnectedError(
        `This ad account is connected to another profile (${existing.profileId}); disconnect it there first.`,
      );
    }
    if (!existing || existing.status === 'disconnected')
      await assertWithinPlan(trx, services.config.usage, principal.ownerId, 'connectedAccounts', 1);
    const now = new Date();
    const fields = {
      profileId,
      name: granted.name,
      currency: granted.currency,
      timezone: granted.timezone,
      status: 'connected' as const,
      statusReason: null,
      platformStatus: granted.platformStatus,
      scopes: granted.scopes,
      credentialsCiphertext: services.secrets.seal(JSON.stringify(granted.credentials)),
      tokenExpiresAt: granted.tokenExpiresAt,
      platformUserId: granted.platformUserId ?? null,
      connectedAt: now,
      lastError: null,
      updatedAt: now,
    };
    const row = existing
      ? (await AdAccountRow.query(trx).patch(fields).where({ id: existing.id }).returning('*'))[0]!
      : await AdAccountRow.query(trx).insertAndFetch({
          id: newId('adacc'),
          ownerId: principal.ownerId,
          platform,
          platformAdAccountId: granted.platformAdAccountId,
          ...fields,
        });
    await emitEvent(trx, { ownerId: principal.ownerId, profileId, name: 'account.connected', data: accountEventData(row, 'connected') });
    return row;
  });
}
