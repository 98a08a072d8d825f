import type { Knex } from 'knex';
import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings, claimInBatches, dueRowIds } from '../../lib/lease-worker.js';
import { PlatformError } from '../../platforms/errors.js';
import type { Platforms } from '../../platforms/registry.js';
import type { Credentials } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { type Connection, connectionModel, platformIdOf, type RevocationRow } from './models.js';
import { adapterAccount, connectionById } from './read.js';

/** Woken by every committed revocation owed to a platform. */
export const REVOCATIONS_CHANNEL = 'socialgate_account_revocations';

/**
 * Owes the platform the undoing of what the service set up for the connection (its grant revoked, its webhook
 * removed, its device logged out: the adapter's `revoke`), in the caller's transaction (the outbox), with the
 * credentials that can do it, which the disconnection then forgets on the connection itself. RevocationWork
 * does it after the commit; a crash in between loses none. Nothing is owed where the platform has nothing to undo.
 */
export async function oweRevocation(trx: Knex.Transaction, platforms: Platforms, row: Connection): Promise<void> {
  if (!platforms.get(row.platform)?.revoke || !row.credentialsCiphertext || !platformIdOf(row)) return;
  await trx('accountRevocations')
    .insert({ accountId: row.id, ownerId: row.ownerId, credentialsCiphertext: row.credentialsCiphertext })
    .onConflict('accountId')
    .merge({ credentialsCiphertext: row.credentialsCiphertext, attempts: 0, dueAt: trx.fn.now(), lastError: null });
  await trx.raw(`NOTIFY ${REVOCATIONS_CHANNEL}`);
}

/**
 * The adapter's `revoke` of the connection, with the credentials it holds. What the identity's connections share
 * (`revokeIsShared`: a page's webhook subscription) is left while another connection of the identity is live, as
 * when two owners connected the same page; nor is an OAuth grant another live connection of the owner holds.
 */
export async function revokeAtPlatform(services: Services, connection: Connection): Promise<void> {
  const adapter = services.platforms.get(connection.platform);
  if (!adapter?.revoke) return;
  if (adapter.revokeIsShared && (await identityStillConnected(services.db, connection))) return;
  const account = adapterAccount(connection, services.secrets);
  if (await grantStillHeld(services, connection, account.credentials.refreshToken)) return;
  await adapter.revoke(account);
}

/**
 * Whether another live connection of the owner holds the same OAuth grant (its refresh token): one consent connects
 * several business locations and a calendar, and revoking the grant for one would cut off the others.
 */
async function grantStillHeld(services: Services, connection: Connection, refreshToken: string | undefined): Promise<boolean> {
  if (!refreshToken) return false;
  const others = (await connectionModel(connection.id)
    .query(services.db)
    .where({ ownerId: connection.ownerId })
    .whereNot({ id: connection.id })
    .whereNot({ status: 'disconnected' })
    .whereNotNull('credentialsCiphertext')) as Connection[];
  return others.some(
    (other) => (JSON.parse(services.secrets.open(other.credentialsCiphertext!)) as Credentials).refreshToken === refreshToken,
  );
}

async function identityStillConnected(db: Knex, connection: Connection): Promise<boolean> {
  const column = 'platformAdAccountId' in connection ? 'platformAdAccountId' : 'platformAccountId';
  const other = await connectionModel(connection.id)
    .query(db)
    .where({ platform: connection.platform, [column]: platformIdOf(connection) })
    .whereNot({ id: connection.id })
    .whereNot({ status: 'disconnected' })
    .first();
  return other !== undefined;
}

type Outcome = { kind: 'done' } | { kind: 'retry'; why: string } | { kind: 'drop'; why: string };

const POLL_MS = 2000;
const LEASE_SECONDS = 60;
/** Seconds before each retry of a revocation the platform could not take now; then it is given up, as DELETE /accounts gives up. */
const RETRY_SECONDS = [5, 30, 120, 600];

/**
 * Makes the platform calls a profile's deletion owes (table `account_revocations`), under a lease so several
 * workers share the table and a crash loses none. A platform that is down or limits the rate is asked again
 * later; a refusal (the token revoked already, the webhook gone) is the end of it: there is nothing left to undo.
 */
export class RevocationWork implements LeasedWork<RevocationRow, Outcome> {
  readonly settings: LeaseWorkerSettings = {
    name: 'socialgate-account-revocations',
    channels: [REVOCATIONS_CHANNEL],
    concurrency: 4,
    pollMs: POLL_MS,
    loops: 1,
    leaseSeconds: LEASE_SECONDS,
  };

  constructor(private readonly services: Services) {}

  turn(loop: ClaimLoop<RevocationRow>): Promise<void> {
    return claimInBatches(loop, 10, POLL_MS, async (n) => {
      const { db } = this.services;
      const due = dueRowIds(db, 'accountRevocations', { pending: (rows) => rows, dueColumn: 'dueAt', key: 'accountId' }, n);
      return (await db('accountRevocations')
        .whereIn('accountId', due)
        .update({ lockedUntil: db.raw('now() + make_interval(secs => ?)', [LEASE_SECONDS]), attempts: db.raw('attempts + 1') })
        .returning('*')) as RevocationRow[];
    });
  }

  async process(owed: RevocationRow): Promise<Outcome> {
    const connection = await connectionById(this.services.db, owed.accountId);
    const adapter = connection && this.services.platforms.get(connection.platform);
    if (!connection || !adapter?.revoke) return { kind: 'drop', why: 'the connection or its platform is gone' };
    try {
      await revokeAtPlatform(this.services, { ...connection, credentialsCiphertext: owed.credentialsCiphertext } as Connection);
      return { kind: 'done' };
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      const later = error.kind === 'transient' || error.kind === 'rate_limited';
      return { kind: later ? 'retry' : 'drop', why: error.message };
    }
  }

  async record(owed: RevocationRow, outcome: Outcome): Promise<void> {
    const { db, logger } = this.services;
    const delay = outcome.kind === 'retry' ? RETRY_SECONDS[owed.attempts - 1] : undefined;
    if (outcome.kind === 'retry' && delay !== undefined) {
      await db('accountRevocations')
        .where({ accountId: owed.accountId })
        .update({ lockedUntil: null, lastError: outcome.why.slice(0, 1000), dueAt: db.raw('now() + make_interval(secs => ?)', [delay]) });
      return;
    }
    if (outcome.kind !== 'done')
      logger.warn({ ...this.describe(owed), why: outcome.why }, 'revoking at the platform failed; the account stays disconnected');
    await db('accountRevocations').where({ accountId: owed.accountId }).delete();
  }

  async renew(owed: RevocationRow[]): Promise<void> {
    const { db } = this.services;
    await db('accountRevocations')
      .whereIn(
        'accountId',
        owed.map((row) => row.accountId),
      )
      .update({ lockedUntil: db.raw('now() + make_interval(secs => ?)', [LEASE_SECONDS]) });
  }

  describe(owed: RevocationRow): Record<string, unknown> {
    return { accountId: owed.accountId, attempt: owed.attempts };
  }
}
