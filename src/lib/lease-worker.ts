import type { Knex } from 'knex';
import type { NotificationListener } from './listener.js';
import type { Logger } from './logger.js';

export interface LeaseWorkerSettings {
  /** The worker's name in logs. */
  name: string;
  /** Channels whose NOTIFY wakes the claim loops. */
  channels: string[];
  /** Items worked on at once. */
  concurrency: number;
  /** Work is looked for at least this often, NOTIFY or not: retries coming due, leases run out, a lost wake-up. */
  pollMs: number;
  /** Claim loops side by side (SKIP LOCKED keeps their claims apart). */
  loops: number;
  /**
   * How long a claim holds without being renewed. The worker renews the leases of everything it holds several
   * times per lease, so a live slow call keeps its items however long it takes, and the items of a worker that
   * died are free for another within this many seconds.
   */
  leaseSeconds: number;
  /**
   * Items a claim may take beyond the free slots, held under their leases (renewed with the others) and started in
   * the order claimed as slots come free: for work whose claim costs more when it runs again later (a fan-out that
   * leases what it creates). None unless said; a stop gives back those not started (`LeasedWork.release`).
   */
  backlog?: number;
}

/** What a claim loop's turn sees of its worker. */
export interface ClaimLoop<Item> {
  /** False once the worker is stopping: a turn that claims in several steps checks it between them. */
  readonly claiming: boolean;
  /** Slots free now (none while items claimed earlier wait for one). */
  readonly room: number;
  /** Items it may claim beyond `room`, to wait for a slot (`settings.backlog`, less those waiting already). */
  readonly spare: number;
  /** Items holding a slot now. */
  readonly busy: number;
  /**
   * Holds up to `limit` free places (no more than `room + spare`) while `take(n)` claims at most `n` items, then
   * works on what it took, each recorded when it ends; those beyond the free slots wait for one. Loops side by side
   * never claim more than the free places together. Resolves to how many were taken.
   */
  claim(limit: number, take: (n: number) => Promise<Item[]>): Promise<number>;
  /** Until a NOTIFY, `ms`, or (`untilSlotFreed`) a slot coming free. Returns at once if signalled already. */
  sleep(ms: number, untilSlotFreed?: boolean): Promise<void>;
}

/**
 * The usual turn: claims up to `batch` due items while slots are free; waits for a slot when none is, and for a
 * NOTIFY or `pollMs` when fewer were due than it asked for.
 */
export async function claimInBatches<Item>(
  loop: ClaimLoop<Item>,
  batch: number,
  pollMs: number,
  take: (n: number) => Promise<Item[]>,
): Promise<void> {
  const limit = Math.min(loop.room, batch);
  if (limit <= 0) return loop.sleep(pollMs, true);
  const taken = await loop.claim(limit, take);
  if (taken < limit) await loop.sleep(pollMs);
}

/**
 * Which rows of a drained table are still to work on, when `status` alone does not say it: `pending` narrows to
 * them as the table's partial index of due rows does (write it as that index's WHERE, so the index is used).
 */
export interface DueRows {
  pending: (rows: Knex.QueryBuilder) => Knex.QueryBuilder;
  /** When a row is due (`nextAttemptAt`). */
  dueColumn?: string;
  /** The order rows are claimed in: soonest due first unless another column says it. */
  orderBy?: string;
  /** The columns selected, the rows' key (`id`). */
  key?: string | string[];
}

/**
 * The keys of up to `n` rows of a drained table (with a due column and `locked_until`) still to work on (in one
 * of `statuses`, or as `DueRows` says), due now and leased to nobody, soonest due first: a subquery that locks
 * them for the claim that uses it, skipping those another claim holds.
 */
export function dueRowIds(db: Knex, table: string, statuses: readonly string[] | DueRows, n: number): Knex.QueryBuilder {
  const rows: DueRows = 'pending' in statuses ? statuses : { pending: (query) => query.whereIn('status', statuses as readonly string[]) };
  const due = rows.dueColumn ?? 'nextAttemptAt';
  return rows
    .pending(db(table).select(rows.key ?? 'id'))
    .where(due, '<=', db.fn.now())
    .where((free) => free.whereNull('lockedUntil').orWhere('lockedUntil', '<', db.fn.now()))
    .orderBy(rows.orderBy ?? due)
    .limit(n)
    .forUpdate()
    .skipLocked();
}

/** What a leased worker does with its table; the worker runs it: loops, wake-ups, slots, stopping. */
export interface LeasedWork<Item, Result> {
  readonly settings: LeaseWorkerSettings;
  /** One look for work: claim what is due under a lease, `begin()` it, and `sleep()` when nothing more is due now. */
  turn(loop: ClaimLoop<Item>): Promise<void>;
  /** The work itself. Anything it cannot describe as a result, it throws: logged, and the item's lease runs out. */
  process(item: Item): Promise<Result>;
  /** Commits an item's result (and gives up its lease). */
  record(item: Item, result: Result): Promise<void>;
  /** Extends the leases of items this worker holds (claimed and not recorded yet), by `settings.leaseSeconds`. */
  renew(items: Item[]): Promise<void>;
  /** What a log line names an item by. */
  describe(item: Item): Record<string, unknown>;
  /** A NOTIFY on `channel`; none after a (re)connection, when any of them may have been missed. */
  heard?(channel: string | null): void;
  /**
   * At every clean stop: gives back the leases of items claimed and never started (a stop with a backlog), and any
   * others the work holds itself (targets leased ahead of their due time): another may take them now.
   */
  release?(items: Item[]): Promise<void>;
  /** Closes the work's own connections (HTTP clients), once the worker has stopped working. */
  close?(): Promise<void>;
}

interface Sleeper {
  done: () => void;
  /** Woken by a slot coming free as well. */
  untilSlotFreed: boolean;
}

/** Leases are renewed this many times per lease: a renewal or two may be late or fail before one runs out. */
const RENEWALS_PER_LEASE = 4;

/**
 * Runs a `LeasedWork` that drains a table of leased rows: its turns claim due rows under a lease (FOR UPDATE SKIP
 * LOCKED, so any number of workers share the table and never take one row twice) through `claim()`; the worker
 * processes each (e.g. a platform call), then records its result, with at most `concurrency` items claimed and
 * not recorded. A slot is free again only once its outcome is committed: what a crash can leave half done (a
 * call answered, its answer lost) is never more than `concurrency` items. Claim loops wake on NOTIFY and poll;
 * a turn that fails is logged and retried after the poll. While it holds items the worker renews their leases;
 * a worker that dies stops renewing, and its leases run out within `leaseSeconds`. What the next claim does with
 * such a row (send again, or reconcile first) is the work's.
 */
export class LeaseWorker<Item, Result> {
  private unlisten: (() => Promise<void>) | undefined;
  private claiming = false;
  /** A NOTIFY (or a stop) came since a loop last looked: it looks again before sleeping. */
  private signalled = true;
  /** A slot came free since a loop last looked: one that would sleep until then looks again. */
  private slotFreed = false;
  private readonly sleepers = new Set<Sleeper>();
  /** Items started and not recorded yet: each holds a slot (the concurrency limit counts these) and its lease. */
  private readonly held = new Map<Item, Promise<void>>();
  /** Items claimed beyond the free slots (`settings.backlog`), in the order claimed: leased, waiting for a slot. */
  private readonly waiting: Item[] = [];
  /** When each item held or waiting was leased or last renewed (the clock before the statement): what to renew. */
  private readonly leasedAt = new Map<Item, number>();
  /** Places held by claims under way. */
  private reserved = 0;
  private renewal: NodeJS.Timeout | undefined;
  private readonly claimLoop: ClaimLoop<Item>;
  private loopsDone: Promise<void> | undefined;
  private stopped: Promise<void> | undefined;

  constructor(
    /** The process's listener, on which the worker hears its channels. */
    private readonly listener: NotificationListener,
    private readonly logger: Logger,
    private readonly work: LeasedWork<Item, Result>,
  ) {
    // The loop's getters read the worker's live state.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const worker = this;
    this.claimLoop = {
      get claiming() {
        return worker.claiming;
      },
      get room() {
        return worker.room();
      },
      get spare() {
        return worker.free() - worker.room();
      },
      get busy() {
        return worker.held.size;
      },
      claim: (limit, take) => this.claim(limit, take),
      sleep: (ms, untilSlotFreed = false) => this.sleep(ms, untilSlotFreed),
    };
  }

  /** A LISTEN that fails fails the start (a worker that cannot reach its database does not run). */
  async start(): Promise<void> {
    const { channels, loops } = this.work.settings;
    this.unlisten = await this.listener.listen(channels, (channel) => {
      this.work.heard?.(channel);
      this.signal();
    });
    this.claiming = true;
    this.scheduleRenewal();
    this.loopsDone = Promise.all(Array.from({ length: loops }, () => this.loop())).then(() => undefined);
  }

  /**
   * Stops claiming, waits for the items in flight (each bounded by its own timeout) and their records, then closes
   * the connections. Runs once: a second call waits for the first.
   */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      await this.stopClaiming();
      await this.releaseWaiting();
      await Promise.allSettled([...this.held.values()]);
      await this.disconnect();
    })();
    return this.stopped;
  }

  /** No loop claims any more once this resolves. */
  protected async stopClaiming(): Promise<void> {
    this.claiming = false;
    this.signal();
    await this.loopsDone;
  }

  /** Stops renewing leases and listening; closes the work's own connections. */
  protected async disconnect(): Promise<void> {
    clearTimeout(this.renewal);
    this.renewal = undefined;
    await this.unlisten?.();
    await this.work.close?.();
  }

  /** Places a claim may take now: free slots, and the backlog not waiting yet. */
  private free(): number {
    const { concurrency, backlog = 0 } = this.work.settings;
    return concurrency + backlog - this.held.size - this.waiting.length - this.reserved;
  }

  private room(): number {
    return Math.max(0, Math.min(this.free(), this.work.settings.concurrency - this.held.size - this.waiting.length - this.reserved));
  }

  private async claim(limit: number, take: (n: number) => Promise<Item[]>): Promise<number> {
    // A turn that was under way when the worker began stopping starts no claim.
    if (!this.claiming) return 0;
    const n = Math.max(0, Math.min(limit, this.free()));
    this.reserved += n;
    const leasedAt = Date.now();
    let items: Item[];
    try {
      items = await take(n);
    } finally {
      this.reserved -= n;
    }
    for (const item of items) {
      this.leasedAt.set(item, leasedAt);
      if (this.waiting.length === 0 && this.held.size < this.work.settings.concurrency) this.begin(item);
      else this.waiting.push(item);
    }
    return items.length;
  }

  /** The leases of the items still waiting for a slot (and the work's own) go back, or run out if the work cannot give them back. */
  private async releaseWaiting(): Promise<void> {
    const items = this.waiting.splice(0);
    for (const item of items) this.leasedAt.delete(item);
    if (!this.work.release) return;
    await this.work.release(items).catch((error: unknown) => {
      this.logger.warn({ err: error }, `${this.work.settings.name}: giving back leases failed; they will run out`);
    });
  }

  private begin(item: Item): void {
    const recorded = this.work
      .process(item)
      .then((result) => this.work.record(item, result))
      .catch((error: unknown) => {
        this.logger.error(
          { err: error, ...this.work.describe(item) },
          `${this.work.settings.name}: an item failed unexpectedly; its lease will run out`,
        );
      })
      .finally(() => {
        this.held.delete(item);
        this.leasedAt.delete(item);
        const next = this.claiming ? this.waiting.shift() : undefined;
        if (next !== undefined) this.begin(next);
        this.slotFreed = true;
        for (const sleeper of [...this.sleepers]) if (sleeper.untilSlotFreed) sleeper.done();
      });
    this.held.set(item, recorded);
  }

  /** Renews the leases of everything held, a few times per lease, until the worker disconnects. */
  private scheduleRenewal(): void {
    this.renewal = setTimeout(() => void this.renewHeld(), this.renewalMs());
  }

  private renewalMs(): number {
    return (this.work.settings.leaseSeconds * 1000) / RENEWALS_PER_LEASE;
  }

  /**
   * Renews the leases taken or renewed at least a renewal period ago: each is renewed with half of it left or more,
   * and an item worked on within a period (most, in a burst) is never written again for its lease.
   */
  private async renewHeld(): Promise<void> {
    const now = Date.now();
    const due = [...this.leasedAt].filter(([, at]) => now - at >= this.renewalMs()).map(([item]) => item);
    if (due.length > 0) {
      try {
        await this.work.renew(due);
        for (const item of due) if (this.leasedAt.has(item)) this.leasedAt.set(item, now);
      } catch (error) {
        this.logger.warn({ err: error }, `${this.work.settings.name}: renewing leases failed; trying again`);
      }
    }
    // Not once disconnected (it clears the timer).
    if (this.renewal) this.scheduleRenewal();
  }

  private sleep(ms: number, untilSlotFreed: boolean): Promise<void> {
    if (this.signalled || (untilSlotFreed && this.slotFreed) || !this.claiming) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        untilSlotFreed,
        done: () => {
          clearTimeout(timer);
          this.sleepers.delete(sleeper);
          resolve();
        },
      };
      const timer = setTimeout(sleeper.done, ms);
      this.sleepers.add(sleeper);
    });
  }

  private signal(): void {
    this.signalled = true;
    for (const sleeper of [...this.sleepers]) sleeper.done();
  }

  private async loop(): Promise<void> {
    while (this.claiming) {
      try {
        this.signalled = false;
        this.slotFreed = false;
        await this.work.turn(this.claimLoop);
      } catch (error) {
        this.logger.error({ err: error }, `${this.work.settings.name}: claim loop failed; retrying`);
        await new Promise((resolve) => setTimeout(resolve, this.work.settings.pollMs));
      }
    }
  }
}
