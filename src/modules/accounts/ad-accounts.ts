import type { Knex } from 'knex';
import { assertWithinPlan } from '../usage/limits.js';
import type { components } from '../../../generated/api.js';
import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import type { Credentials } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { assertProfileInScope, listedProfiles, type Principal } from '../auth/principal.js';
import { emitEvent } from '../events/emit.js';
import { AccountAlreadyConnectedError } from './errors.js';
import { accountEventData } from './events.js';
import { AdAccountRow } from './models.js';
import { findProfile } from './profiles.js';

type AdAccount = components['schemas']['AdAccount'];

export function presentAdAccount(row: AdAccountRow): AdAccount {
  return {
    id: row.id,
    profileId: row.profileId,
    platform: row.platform,
    platformAdAccountId: row.platformAdAccountId,
    name: row.name,
    currency: row.currency,
    timezone: row.timezone,
    status: row.status,
    statusReason: row.statusReason as AdAccount['statusReason'],
    platformStatus: row.platformStatus as AdAccount['platformStatus'],
    tokenExpiresAt: row.tokenExpiresAt?.toISOString() ?? null,
    connectedAt: row.connectedAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function findAdAccount(db: Knex, principal: Principal, id: string): Promise<AdAccountRow> {
  const row = await AdAccountRow.query(db).findOne({ id, ownerId: principal.ownerId });
  if (!row) throw new NotFoundError('ad account');
  assertProfileInScope(principal, row.profileId);
  return row;
}

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
  const query = AdAccountRow.query(db)
    .where({ ownerId: principal.ownerId })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  const profiles = await listedProfiles(db, principal, filters.profileId);
  if (profiles) query.whereIn('profileId', profiles);
  if (filters.platform) query.where({ platform: filters.platform });
  if (filters.status) query.where({ status: filters.status });
  else query.whereNot({ status: 'disconnected' });
  if (page.after) query.where('id', '<', page.after);
  return toPage(await query, page, presentAdAccount);
}

export interface GrantedAdAccount {
  platformAdAccountId: string;
  name: string;
  currency: string;
  timezone: string;
  platformStatus: AdAccount['platformStatus'];
  tokenExpiresAt: Date | null;
  credentials: Credentials;
  /** Who at the platform granted the token (see AccountRow.platformUserId). */
  platformUserId?: string | null;
}

/**
 * Creates the ad account, or reconnects the same one of the same profile (same id, new tokens); in another
 * profile it is a 409. Emits `account.connected` with `accountType: ad_account`. Runs inside `outer` when given.
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
      credentialsCiphertext: services.secrets.seal(JSON.stringify(granted.credentials)),
      tokenExpiresAt: granted.tokenExpiresAt,
      platformUserId: granted.platformUserId ?? null,
      connectedAt: now,
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

/** Forgets the ad account's tokens, keeps the record, emits `account.disconnected` (once). */
export async function disconnectAdAccount(services: Services, principal: Principal, id: string): Promise<void> {
  await findAdAccount(services.db, principal, id);
  await services.db.transaction(async (trx) => {
    const row = await AdAccountRow.query(trx).findById(id).forUpdate();
    if (!row || row.status === 'disconnected') return;
    await AdAccountRow.query(trx)
      .patch({
        status: 'disconnected',
        statusReason: 'disconnected_by_user',
        credentialsCiphertext: null,
        tokenExpiresAt: null,
        updatedAt: new Date(),
      })
      .where({ id });
    await emitEvent(trx, {
      ownerId: row.ownerId,
      profileId: row.profileId,
      name: 'account.disconnected',
      data: accountEventData(row, 'disconnected'),
    });
  });
}

/**
 * The platform took back the grant behind the ad account (the user removed the app or a permission): it needs
 * a reconnection, announced once with `account.needs_reconnection` (never `account.disconnected`).
 */
export async function markAdAccountNeedsReconnection(
  db: Knex,
  id: string,
  statusReason: 'token_revoked' | 'permission_missing',
  detail: string,
): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await AdAccountRow.query(trx).findById(id).forUpdate();
    if (!row || row.status !== 'connected') return;
    await AdAccountRow.query(trx).patch({ status: 'needs_reconnection', statusReason, updatedAt: new Date() }).where({ id });
    await emitEvent(trx, {
      ownerId: row.ownerId,
      profileId: row.profileId,
      name: 'account.needs_reconnection',
      data: accountEventData(row, 'needs_reconnection', statusReason, detail),
    });
  });
}
