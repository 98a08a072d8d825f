import type { Knex } from 'knex';
import type { Model, QueryBuilder } from 'objection';
import type { components } from '../../../generated/api.js';
import { type AccountId, newId } from '../../lib/ids.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import { LeadAccessRefused } from '../../platforms/capabilities/leads.js';
import type { PlatformError } from '../../platforms/errors.js';
import type { Credentials, PlatformIdentity } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { listedProfiles, type Principal } from '../auth/principal.js';
import { emitEvent, type EventRecord } from '../events/emit.js';
import { AccountAlreadyConnectedError } from './errors.js';
import { connectedFields, writeConnection } from './connected.js';
import { accountEventData } from './events.js';
import { assertIdentityFree } from './identity.js';
import { type AccountError, AccountRow, type Connection, type ConnectionId, connectionModel, platformIdOf } from './models.js';
import { type HealthFacts, presentAccount, presentHealth } from './present.js';
import { findProfile } from './profiles.js';
import { findConnection } from './read.js';
import { revokeAtPlatform } from './revocations.js';

type Account = components['schemas']['Account'];

/** What a list of accounts or ad accounts is filtered by. */
export interface ConnectionFilters {
  profileId?: string;
  platform?: string;
  status?: string;
}

/**
 * A page of the owner's accounts or ad accounts, newest first, within the caller's profiles: `status` or, by
 * default, all but the disconnected ones. `query` is the model's query with the list's own filters applied.
 */
export async function listed<M extends Model & { id: string }, R>(
  query: QueryBuilder<M, M[]>,
  db: Knex,
  principal: Principal,
  page: PageRequest,
  filters: ConnectionFilters,
  present: (row: M) => R,
): Promise<Page<R>> {
  query
    .where('ownerId', principal.ownerId)
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  const profiles = await listedProfiles(db, principal, filters.profileId);
  if (profiles) query.whereIn('profileId', profiles);
  if (filters.platform) query.where('platform', filters.platform);
  if (filters.status) query.where('status', filters.status);
  else query.whereNot('status', 'disconnected');
  if (page.after) query.where('id', '<', page.after);
  return toPage(await query, page, present);
}

export async function listAccounts(
  db: Knex,
  principal: Principal,
  page: PageRequest,
  filters: ConnectionFilters & { kind?: string },
): Promise<Page<Account>> {
  const query = AccountRow.query(db);
  if (filters.kind) query.where({ kind: filters.kind });
  return listed(query, db, principal, page, filters, presentAccount);
}

/** Health from the records (no platform is called); `needsAction` filters within each page. */
export async function listAccountHealth(
  db: Knex,
  principal: Principal,
  page: PageRequest,
  filters: {
    profileId?: string;
    platform?: string;
    needsAction?: boolean;
  },
  factsOf: (platform: string) => HealthFacts,
): Promise<Page<components['schemas']['AccountHealth']>> {
  const { profileId, platform } = filters;
  const result = await listed(AccountRow.query(db), db, principal, page, { profileId, platform }, (row) =>
    presentHealth(row, factsOf(row.platform)),
  );
  if (filters.needsAction === undefined) return result;
  return { ...result, data: result.data.filter((entry) => (entry.action !== 'none') === filters.needsAction) };
}

/**
 * Creates the account, or repairs the same platform account of the same profile (new credentials, same id).
 * The platform account in another profile of the owner, or another owner's where the platform's identities are
 * exclusive, is a 409 (assertIdentityFree). Emits `account.connected`.
 */
export async function saveConnectedAccount(
  services: Services,
  principal: Principal,
  input: {
    profileId: string;
    platform: string;
    identity: PlatformIdentity;
    credentials: Credentials;
    id?: AccountId;
  },
  outer?: Knex.Transaction,
): Promise<{ row: AccountRow; created: boolean }> {
  const { secrets } = services;
  // Inside a caller's transaction this is a savepoint: several accounts of one grant are saved all or none.
  const db = outer ?? services.db;
  try {
    return await db.transaction(async (trx) => {
      await findProfile(trx, principal, input.profileId);
      const { platformAccountId } = input.identity;
      await assertIdentityFree(trx, services.platforms, {
        ownerId: principal.ownerId,
        profileId: input.profileId,
        platform: input.platform,
        platformAccountId,
      });
      const existing = await AccountRow.query(trx)
        .forUpdate()
        .findOne({ ownerId: principal.ownerId, platform: input.platform, platformAccountId });
      const { identity } = input;
      const fields = {
        profileId: input.profileId,
        kind: identity.kind,
        name: identity.name,
        username: identity.username,
        avatarUrl: identity.avatarUrl,
        platformProblem: null,
        ...connectedFields(secrets, { ...identity, credentials: input.credentials }),
      };
      const row = await writeConnection(trx, services, principal.ownerId, existing, async (found) =>
        found
          ? (await AccountRow.query(trx).patch(fields).where({ id: found.id }).returning('*'))[0]!
          : AccountRow.query(trx).insertAndFetch({
              id: input.id ?? newId('acc'),
              ownerId: principal.ownerId,
              platform: input.platform,
              platformAccountId,
              ...fields,
            }),
      );
      return { row, created: !existing };
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AccountAlreadyConnectedError('This platform account was connected at the same moment by another request.');
    throw error;
  }
}

export function accountErrorOf(error: PlatformError): AccountError {
  const code: AccountError['code'] =
    error instanceof LeadAccessRefused
      ? 'lead_access_refused'
      : error.kind === 'auth_expired'
        ? 'token_revoked'
        : error.kind === 'permission_revoked'
          ? 'permission_missing'
          : error.kind === 'rate_limited'
            ? 'rate_limited'
            : error.kind === 'transient'
              ? 'platform_unavailable'
              : 'platform_error';
  return {
    code,
    message: error.message.slice(0, 1000),
    platformCode: error.details.platformCode === undefined ? null : String(error.details.platformCode),
    at: new Date().toISOString(),
  };
}

/**
 * Records what a platform call taught us about an account or ad account. Credentials refused mark it
 * `needs_reconnection` and emit `account.needs_reconnection` (never `account.disconnected`: the user did not
 * disconnect it here); a success is noted as `noteSuccesses` notes it, at most once a minute.
 */
export async function recordPlatformOutcome(db: Knex, id: ConnectionId, error: PlatformError | null): Promise<void> {
  if (!error) return noteSuccesses(db, [id]);
  const model = connectionModel(id);
  await db.transaction(async (trx) => {
    const row = await model.query(trx).findById(id).forUpdate();
    if (!row) return;
    const lastError = accountErrorOf(error);
    if (!error.needsReconnection || row.status !== 'connected') {
      await model
        .query(trx)
        .patch({ lastError: lastError as never, updatedAt: new Date() })
        .where({ id });
      return;
    }
    const statusReason = error.kind === 'permission_revoked' ? 'permission_missing' : 'token_revoked';
    await model
      .query(trx)
      .patch({ status: 'needs_reconnection', statusReason, lastError: lastError as never, updatedAt: new Date() })
      .where({ id });
    await emitEvent(trx, {
      ownerId: row.ownerId,
      profileId: row.profileId,
      name: 'account.needs_reconnection',
      data: accountEventData(row, 'needs_reconnection', statusReason, lastError.message),
    });
  });
}

/** How often an account's success is noted at most. */
const SUCCESS_NOTE_MS = 60_000;
/** When this process may next note each account's success (ids are unique across databases: one table serves all). */
const nextSuccessNote = new Map<string, number>();

/** Notes that the platform accepted the accounts' (or ad accounts') credentials just now, at most once a minute each. */
export async function noteSuccesses(db: Knex, ids: ConnectionId[]): Promise<void> {
  // Asked of the database once a minute per account by this process, and of the row only when another process has
  // not just done it; skipped while locked, so a busy account is not a lock every batch queues on.
  const now = Date.now();
  const due = ids.filter((id) => (nextSuccessNote.get(id) ?? 0) <= now);
  if (due.length === 0) return;
  if (nextSuccessNote.size >= 10_000) nextSuccessNote.clear();
  for (const id of due) nextSuccessNote.set(id, now + SUCCESS_NOTE_MS);
  for (const { tableName } of new Set(due.map(connectionModel))) {
    await db.raw(
      `
      UPDATE ?? SET last_success_at = now() WHERE id IN (
        SELECT id FROM ?? WHERE id = ANY(?) AND (last_success_at IS NULL OR last_success_at < now() - interval '1 minute')
        ORDER BY id FOR UPDATE SKIP LOCKED)`,
      [tableName, tableName, due],
    );
  }
}

/**
 * Forgets the account's (or ad account's) last error when it is of `code` and a call it stood for has now
 * succeeded (a lead read after a lead access refusal): the success note alone, at most once a minute and compared
 * by time, could leave the health asking for a fix already made. Only a row holding that error is written.
 */
export async function clearLastError(db: Knex, id: ConnectionId, code: AccountError['code']): Promise<void> {
  await db(connectionModel(id).tableName).where({ id }).whereRaw(`last_error->>'code' = ?`, [code]).update({ lastError: null });
}

/**
 * Disconnects an account or ad account from the service: revokes at the platform where it can (best effort),
 * forgets the credentials, keeps the record, emits `account.disconnected`. A second DELETE changes nothing and
 * emits nothing.
 */
export async function disconnect(services: Services, principal: Principal, id: ConnectionId): Promise<void> {
  const row = await findConnection(services.db, principal, id);
  if (row.status === 'disconnected') return;
  if (row.credentialsCiphertext && platformIdOf(row)) {
    await revokeAtPlatform(services, row).catch((error: unknown) => {
      services.logger.warn({ err: error, accountId: id }, 'revoking at the platform failed; disconnecting anyway');
    });
  }
  await services.db.transaction(async (trx) => {
    const locked = await connectionModel(id).query(trx).findById(id).forUpdate();
    if (!locked || locked.status === 'disconnected') return;
    await markDisconnected(trx, locked);
  });
}

/**
 * The disconnection itself, in the caller's transaction, of a connection it has locked and found not disconnected:
 * its credentials forgotten, its record kept, `account.disconnected` emitted. The event's record is answered.
 */
export async function markDisconnected(trx: Knex.Transaction, locked: Connection): Promise<EventRecord> {
  await connectionModel(locked.id)
    .query(trx)
    .patch({
      status: 'disconnected',
      statusReason: 'disconnected_by_user',
      credentialsCiphertext: null,
      tokenExpiresAt: null,
      updatedAt: new Date(),
    })
    .where({ id: locked.id });
  return emitEvent(trx, {
    ownerId: locked.ownerId,
    profileId: locked.profileId,
    name: 'account.disconnected',
    data: accountEventData(locked, 'disconnected'),
  });
}
