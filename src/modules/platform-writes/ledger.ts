import type { Knex } from 'knex';
import { Batcher, type Outcome, settledEach, togetherOrAlone, unwrap } from '../../lib/batcher.js';
import { onePer } from '../../lib/memo.js';
import { PlatformError } from '../../platforms/errors.js';
import { WriteInProgressError, WriteKeyReusedError, WriteOutcomeUnknownError } from './errors.js';
import {
  insertStarted,
  lockWrite,
  releaseLease,
  restart,
  settleFailed,
  settleSucceeded,
  settleUnknown,
  type Settlement,
  settlementOf,
  takeLease,
  type WriteKey,
  type WriteToStart,
} from './records.js';

/**
 * A write to a platform that is not idempotent (a message sent, a comment reply, an ad object, a catalog item, a
 * calendar event). `Result` is what the platform answered that the caller keeps (its ids): plain JSON, as it is
 * stored with the write and given back when the same key is asked for again.
 */
export interface PlatformWrite<Result> extends WriteKey {
  /** What is written (`message.send`, `comment.reply`, `ad.create` …), for people reading the ledger. */
  kind: string;
  /** What the platform is asked to do, as JSON: the same key asked for with another request is refused. */
  request: unknown;
  /** The platform call: a PlatformError is the platform's answer; any other failure is taken as a lost answer. */
  send(): Promise<Result>;
  /**
   * After a lost answer, asks the platform whether the attempt started at `since` did the write: its result, or
   * null when it did not. Absent where the platform cannot be asked: a lost answer then fails the write as unknown.
   */
  reconcile?(since: Date): Promise<Result | null>;
  /** Stores the result in the caller's records, in the transaction that settles the write: both or neither. */
  store(trx: Knex.Transaction, result: Result): Promise<void>;
  /** Where the result may be kept together with other writes' stored at the same time (see SharedStore). */
  together?: { shared: SharedStore<unknown>; item(result: Result): unknown };
}

/**
 * Where the results of many writes are kept in one go, a statement or two whatever their number (a worker's
 * replies): writes that share one and are stored at about the same time are stored together, with their
 * settlements. `storeAll` stores the items and carries `settlement` (a WITH member, see `Settlement`) in the same
 * commit: given the pool, in one statement, or in a transaction it opens; given a transaction, in it. It locks
 * what it must in the order the other transactions lock it.
 */
export class SharedStore<Item> {
  constructor(readonly storeAll: (db: Knex, items: Item[], settlement?: Settlement) => Promise<void>) {}

  /** The `store` (alone) and `together` of a write that keeps `item(result)` here. */
  keeping<Result>(item: (result: Result) => Item): Pick<PlatformWrite<Result>, 'store' | 'together'> {
    return {
      store: (trx, result) => this.storeAll(trx, [item(result)]),
      together: { shared: this as SharedStore<unknown>, item },
    };
  }
}

/** `sent`: by this call; `reconciled`: found done on the platform after a lost answer; `replayed`: settled before. */
export interface Written<Result> {
  result: Result;
  how: 'sent' | 'reconciled' | 'replayed';
}

/** Longer than any platform call (their time-out is 20 s): a lease that runs out means the caller died mid-call. */
const DEFAULT_LEASE_SECONDS = 120;

interface ToStore {
  write: PlatformWrite<unknown>;
  result: unknown;
}

/**
 * The statements that writes made at about the same time share (a worker's many sends): their starts in one
 * insert; the stores of those that share a store, and their settlements, in one commit. One set per pool.
 */
interface SharedStatements {
  /** Whether the write was started now (false: its key was started before). */
  start: (write: WriteToStart) => Promise<boolean>;
  stores: Batcher<ToStore, Outcome<void>>;
}

const STARTS_BATCH = 100;
const STORES_BATCH = 50;
const shared = onePer((db: Knex): SharedStatements => ({
  start: togetherOrAlone((writes) => insertStarted(db, writes), STARTS_BATCH),
  stores: new Batcher((stored) => storeTogether(db, stored), STORES_BATCH),
}));

/**
 * Stores the results of writes that share stores together with their settlements, in one commit: one statement
 * where they share one store. When that fails, each is stored in a transaction of its own, so that one store that
 * cannot be written fails only its own write.
 */
async function storeTogether(db: Knex, stored: ToStore[]): Promise<Array<Outcome<void>>> {
  if (stored.length === 1) return settledEach(stored, (one) => storeAlone(db, one));
  try {
    const byStore = new Map<SharedStore<unknown>, unknown[]>();
    for (const { write, result } of stored) {
      const { shared, item } = write.together!;
      const items = byStore.get(shared) ?? [];
      items.push(item(result));
      byStore.set(shared, items);
    }
    const settlement = settlementOf(stored.map(({ write, result }) => ({ key: write, result })));
    const stores = [...byStore];
    // The first store carries the settlement; several stores share a transaction.
    const storeEach = async (into: Knex) => {
      for (const [index, [sharedStore, items]] of stores.entries())
        await sharedStore.storeAll(into, items, index === 0 ? settlement : undefined);
    };
    await (stores.length === 1 ? storeEach(db) : db.transaction(storeEach));
    return stored.map(() => ({ ok: true, value: undefined }));
  } catch {
    return settledEach(stored, (one) => storeAlone(db, one));
  }
}

/**
 * Does the write at most once per key. The attempt is recorded and committed before the platform is called, and
 * settled in the transaction that stores the result; a failure of the platform that proves nothing was done
 * (a refusal, a rate limit, a request that never left) settles it as failed, and the key may be tried again. An
 * attempt found started and not settled lost its answer: the platform is asked through `reconcile`, or — where it
 * cannot be — the write fails as unknown. Nothing is ever sent twice under one key.
 */
export async function writeOnce<Result>(
  db: Knex,
  write: PlatformWrite<Result>,
  leaseSeconds = DEFAULT_LEASE_SECONDS,
): Promise<Written<Result>> {
  const begun = await begin(db, write, leaseSeconds);
  if (begun.kind === 'replay') return { result: begun.result as Result, how: 'replayed' };
  if (begun.kind === 'lost') {
    const found = await reconcile(db, write, begun.since);
    if (found !== null) return { result: found, how: 'reconciled' };
    await restart(db, write, leaseSeconds);
  }
  let result: Result;
  try {
    result = await write.send();
  } catch (error) {
    if (error instanceof PlatformError && nothingDone(error)) {
      await settleFailed(db, write, error);
      throw error;
    }
    if (!write.reconcile) {
      await settleUnknown(db, write, `the platform's answer was lost: ${(error as Error).message}`);
      throw new WriteOutcomeUnknownError(`its answer was lost: ${(error as Error).message}`);
    }
    // The next attempt asks the platform first; it need not wait for the lease.
    await releaseLease(db, write);
    throw error;
  }
  await store(db, write, result);
  return { result, how: 'sent' };
}

/** A refusal the platform answered with, or a request that never reached it: either way it did nothing. */
function nothingDone(error: PlatformError): boolean {
  return error.details.unsent === true || error.kind !== 'transient';
}

type Begun = { kind: 'send' } | { kind: 'replay'; result: unknown } | { kind: 'lost'; since: Date };

/** Starts (and commits) an attempt under the key, or says what became of the one before. */
async function begin(db: Knex, write: PlatformWrite<unknown>, leaseSeconds: number): Promise<Begun> {
  if (await shared(db).start({ ...write, leaseSeconds })) return { kind: 'send' };
  return db.transaction(async (trx): Promise<Begun> => {
    const row = await lockWrite(trx, write, write);
    if (!row.sameRequest) throw new WriteKeyReusedError();
    switch (row.status) {
      case 'succeeded':
        return { kind: 'replay', result: row.result };
      case 'unknown':
        throw new WriteOutcomeUnknownError("an earlier attempt's answer was lost");
      case 'failed':
        await restart(trx, write, leaseSeconds);
        return { kind: 'send' };
      default:
        if (row.leaseUntil && row.leaseUntil.getTime() > Date.now()) throw new WriteInProgressError();
        await takeLease(trx, write, leaseSeconds);
        return { kind: 'lost', since: row.startedAt };
    }
  });
}

/** The lost attempt's result found on the platform (stored now), or null when the platform did not do it. */
async function reconcile<Result>(db: Knex, write: PlatformWrite<Result>, since: Date): Promise<Result | null> {
  if (!write.reconcile) {
    await settleUnknown(db, write, "an attempt's answer was lost, and the platform cannot be asked");
    throw new WriteOutcomeUnknownError("an earlier attempt's answer was lost");
  }
  let found: Result | null;
  try {
    found = await write.reconcile(since);
  } catch (error) {
    await releaseLease(db, write);
    throw error;
  }
  if (found !== null) await store(db, write, found);
  return found;
}

/**
 * The caller's records and the settled write, in one commit (shared with other writes stored at about the same
 * time). If that fails, the platform has done the write and nothing says so: a lost answer, left started
 * for the next attempt to reconcile, at once rather than after the lease.
 */
async function store<Result>(db: Knex, write: PlatformWrite<Result>, result: Result): Promise<void> {
  const toStore = { write: write as PlatformWrite<unknown>, result };
  if (!write.together) return storeAlone(db, toStore);
  unwrap(await shared(db).stores.add(toStore));
}

async function storeAlone(db: Knex, { write, result }: ToStore): Promise<void> {
  try {
    await db.transaction(async (trx) => {
      await write.store(trx, result);
      await settleSucceeded(trx, [{ key: write, result }]);
    });
  } catch (error) {
    await releaseLease(db, write).catch(() => {});
    throw error;
  }
}
