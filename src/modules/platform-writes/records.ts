import type { Knex } from 'knex';
import type { PlatformError } from '../../platforms/errors.js';

/** One write, as the `platform_writes` table keys it. */
export interface WriteKey {
  ownerId: string;
  accountId: string;
  key: string;
}

export interface WriteRow extends WriteKey {
  kind: string;
  request: unknown;
  status: 'started' | 'succeeded' | 'failed' | 'unknown';
  attempts: number;
  startedAt: Date;
  leaseUntil: Date | null;
  result: unknown;
  settledAt: Date | null;
}

const whereKey = ({ ownerId, accountId, key }: WriteKey) => ({ ownerId, accountId, key });
const lease = (db: Knex, seconds: number) => db.raw('now() + make_interval(secs => ?)', [seconds]);

/** A new write, started and leased; undefined when the key has a write already. */
export async function insertStarted(
  db: Knex,
  write: WriteKey & { kind: string; request: unknown },
  leaseSeconds: number,
): Promise<boolean> {
  const inserted = (await db('platformWrites')
    .insert({
      ...whereKey(write),
      kind: write.kind,
      request: JSON.stringify(write.request),
      status: 'started',
      attempts: 1,
      startedAt: db.fn.now(),
      leaseUntil: lease(db, leaseSeconds),
    })
    .onConflict(['ownerId', 'accountId', 'key'])
    .ignore()
    .returning('key')) as unknown[];
  return inserted.length > 0;
}

/** The key's write, locked until the caller's transaction ends; `sameRequest`: whether it was asked for this request. */
export async function lockWrite(
  trx: Knex.Transaction,
  key: WriteKey,
  write: { kind: string; request: unknown },
): Promise<WriteRow & { sameRequest: boolean }> {
  return trx('platformWrites')
    .where(whereKey(key))
    .forUpdate()
    .first('*', trx.raw('(kind = ? AND request = ?::jsonb) AS same_request', [write.kind, JSON.stringify(write.request)]));
}

/** A new attempt under the key: counted, started now, leased. */
export async function restart(db: Knex, key: WriteKey, leaseSeconds: number): Promise<void> {
  await db('platformWrites')
    .where(whereKey(key))
    .update({
      status: 'started',
      attempts: db.raw('attempts + 1'),
      startedAt: db.fn.now(),
      leaseUntil: lease(db, leaseSeconds),
      failure: null,
    });
}

/** The lease of an attempt whose answer was lost, taken by the one asking the platform about it. */
export async function takeLease(db: Knex, key: WriteKey, leaseSeconds: number): Promise<void> {
  await db('platformWrites')
    .where(whereKey(key))
    .update({ leaseUntil: lease(db, leaseSeconds) });
}

/** Lets the next attempt ask the platform at once, instead of waiting for the lease to run out. */
export async function releaseLease(db: Knex, key: WriteKey): Promise<void> {
  await db('platformWrites')
    .where({ ...whereKey(key), status: 'started' })
    .update({ leaseUntil: null });
}

export async function settleSucceeded(trx: Knex.Transaction, key: WriteKey, result: unknown): Promise<void> {
  await trx('platformWrites')
    .where(whereKey(key))
    .update({ status: 'succeeded', result: JSON.stringify(result), leaseUntil: null, settledAt: trx.fn.now() });
}

/** The platform refused, or never got the request: nothing was done, and the key may be tried again. */
export async function settleFailed(db: Knex, key: WriteKey, error: PlatformError): Promise<void> {
  await db('platformWrites')
    .where(whereKey(key))
    .update({
      status: 'failed',
      leaseUntil: null,
      settledAt: db.fn.now(),
      failure: JSON.stringify({
        kind: error.kind,
        message: error.message.slice(0, 2000),
        platformCode: error.details.platformCode ?? null,
      }),
    });
}

/** Nobody can tell whether the platform did it: final, never sent again under this key. */
export async function settleUnknown(db: Knex, key: WriteKey, why: string): Promise<void> {
  await db('platformWrites')
    .where(whereKey(key))
    .update({
      status: 'unknown',
      leaseUntil: null,
      settledAt: db.fn.now(),
      failure: JSON.stringify({ kind: 'unknown', message: why.slice(0, 2000) }),
    });
}

/**
 * Forgets writes settled 30 days ago: far beyond any retry of the request that asked for them (idempotency
 * records last 24 hours), so a key that old is never asked about again.
 */
export async function purgeSettledWrites(db: Knex): Promise<number> {
  return db('platformWrites').whereNotNull('settledAt').where('settledAt', '<', db.raw("now() - interval '30 days'")).delete();
}
