import type { Knex } from 'knex';
import type { PlatformError } from '../../platforms/errors.js';
import { whichInserted } from '../../lib/batcher.js';

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

/** A write to start, leased for `leaseSeconds`. */
export interface WriteToStart extends WriteKey {
  kind: string;
  request: unknown;
  leaseSeconds: number;
}

const keyText = ({ ownerId, accountId, key }: WriteKey) => `${ownerId}\u0000${accountId}\u0000${key}`;

/**
 * New writes, started and leased, in one statement: whether each was started. Not one whose key has a write
 * already, nor a second one with the key of an earlier one in `writes`.
 */
export async function insertStarted(db: Knex, writes: WriteToStart[]): Promise<boolean[]> {
  const inserted = (await db('platformWrites')
    .insert(
      writes.map((write) => ({
        ...whereKey(write),
        kind: write.kind,
        request: JSON.stringify(write.request),
        status: 'started',
        attempts: 1,
        startedAt: db.fn.now(),
        leaseUntil: lease(db, write.leaseSeconds),
      })),
    )
    .onConflict(['ownerId', 'accountId', 'key'])
    .ignore()
    .returning(['ownerId', 'accountId', 'key'])) as WriteKey[];
  return whichInserted<WriteKey>(writes, inserted, keyText);
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

/**
 * The settlement of writes that succeeded, as a WITH member (`settled`) for a statement that stores their results
 * too, so that both commit in one round trip (see SharedStore). It runs whether or not the statement selects from it.
 */
export interface Settlement {
  cte: string;
  bindings: Knex.RawBinding[];
}

export function settlementOf(done: Array<{ key: WriteKey; result: unknown }>): Settlement {
  return {
    cte: `settled AS (
      UPDATE platform_writes w SET status = 'succeeded', result = v.result, lease_until = NULL, settled_at = now()
      FROM jsonb_to_recordset(?::jsonb) AS v(owner_id text, account_id text, key text, result jsonb)
      WHERE w.owner_id = v.owner_id AND w.account_id = v.account_id AND w.key = v.key
      RETURNING 1)`,
    bindings: [JSON.stringify(done.map(({ key, result }) => ({ owner_id: key.ownerId, account_id: key.accountId, key: key.key, result })))],
  };
}

/** Writes done, each with the platform's result, in one statement. */
export function settleSucceeded(trx: Knex.Transaction, done: Array<{ key: WriteKey; result: unknown }>): Promise<void> {
  return applySettlement(trx, settlementOf(done));
}

/** A settlement in a statement of its own, for a store that carries it in none of its statements. */
export async function applySettlement(trx: Knex.Transaction, { cte, bindings }: Settlement): Promise<void> {
  await trx.raw(`WITH ${cte} SELECT count(*) FROM settled`, bindings);
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
