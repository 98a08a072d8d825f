import { NotificationListener } from './listener.js';
import type { Logger } from './logger.js';

export interface LeaseWorkerSettings {
  /** The LISTEN connection's application_name, and the worker's name in logs. */
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
   * When an item's slot is free again: once `process` has settled (`processed`), or once its outcome is recorded
   * too (`recorded`). A worker that records each outcome in its own transaction holds the slot through it, so
   * outcomes waiting for the database cannot pile up without bound.
   */
  slotFreedWhen: 'processed' | 'recorded';
}

/** What a claim loop's turn sees of its worker. */
export interface ClaimLoop<Item> {
  /** False once the worker is stopping: a turn that claims in several steps checks it between them. */
  readonly claiming: boolean;
  /** Slots free now. */
  readonly room: number;
  /** Items holding a slot now. */
  readonly busy: number;
  /** Works on claimed items, each recorded when it ends. The caller has checked there is room for them. */
  begin(items: Item[]): void;
  /** Until a NOTIFY, `ms`, or (`untilSlotFreed`) a slot coming free. Returns at once if signalled already. */
  sleep(ms: number, untilSlotFreed?: boolean): Promise<void>;
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
  /** What a log line names an item by. */
  describe(item: Item): Record<string, unknown>;
  /** A NOTIFY on `channel`; none after a (re)connection, when any of them may have been missed. */
  heard?(channel: string | null): void;
  /** Closes the work's own connections (HTTP clients), once the worker has stopped working. */
  close?(): Promise<void>;
}

interface Sleeper {
  done: () => void;
  /** Woken by a slot coming free as well. */
  untilSlotFreed: boolean;
}

/**
 * Runs a `LeasedWork` that drains a table of leased rows: its turns claim due rows under a lease (FOR UPDATE SKIP
 * LOCKED, so any number of workers share the table and never take one row twice) and hand them to `begin()`;
 * the worker processes each (e.g. a platform call), then records its result, with at most `concurrency` in
 * flight. Claim loops wake on NOTIFY and poll; a turn that fails is logged and retried after the poll. A worker
 * that dies leaves its leases to run out; what the next claim does with such a row (send again, or reconcile
 * first) is the work's.
 */
export class LeaseWorker<Item, Result> {
  private listener: NotificationListener | undefined;
  private claiming = false;
  /** A NOTIFY (or a stop) came since a loop last looked: it looks again before sleeping. */
  private signalled = true;
  private readonly sleepers = new Set<Sleeper>();
  /** Items holding a slot (the concurrency limit counts these). */
  private readonly working = new Set<Promise<void>>();
  /** Items whose result is not committed yet. */
  private readonly recording = new Set<Promise<void>>();
  private readonly claimLoop: ClaimLoop<Item>;
  private loopsDone: Promise<void> | undefined;
  private stopped: Promise<void> | undefined;

  constructor(private readonly databaseUrl: string, private readonly logger: Logger, private readonly work: LeasedWork<Item, Result>) {
    // The loop's getters read the worker's live state.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const worker = this;
    this.claimLoop = {
      get claiming() { return worker.claiming; },
      get room() { return work.settings.concurrency - worker.working.size; },
      get busy() { return worker.working.size; },
      begin: (items) => this.begin(items),
      sleep: (ms, untilSlotFreed = false) => this.sleep(ms, untilSlotFreed),
    };
  }

  /** The first LISTEN connection fails the start (a worker that cannot reach its database does not run). */
  async start(): Promise<void> {
    const { name, channels, loops } = this.work.settings;
    this.listener = new NotificationListener(this.databaseUrl, channels, (channel) => {
      this.work.heard?.(channel);
      this.signal();
    }, this.logger, name);
    await this.listener.start();
    this.claiming = true;
    this.loopsDone = Promise.all(Array.from({ length: loops }, () => this.loop())).then(() => undefined);
  }

  /**
   * Stops claiming, waits for the items in flight (each bounded by its own timeout) and their records, then closes
   * the connections. Runs once: a second call waits for the first.
   */
  stop(): Promise<void> {
    this.stopped ??= (async () => {
      await this.stopClaiming();
      await Promise.allSettled([...this.working]);
      await Promise.allSettled([...this.recording]);
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

  /** Closes the LISTEN connection and the work's own. */
  protected async disconnect(): Promise<void> {
    await this.listener?.stop();
    await this.work.close?.();
  }

  private begin(items: Item[]): void {
    for (const item of items) {
      const processed = this.work.process(item);
      const recorded: Promise<void> = processed
        .then((result) => this.work.record(item, result))
        .catch((error: unknown) => {
          this.logger.error({ err: error, ...this.work.describe(item) }, `${this.work.settings.name}: an item failed unexpectedly; its lease will run out`);
        })
        .finally(() => this.recording.delete(recorded));
      this.recording.add(recorded);
      const held = this.work.settings.slotFreedWhen === 'recorded' ? recorded : processed.then(() => undefined, () => undefined);
      const slot: Promise<void> = held.finally(() => {
        this.working.delete(slot);
        for (const sleeper of [...this.sleepers]) if (sleeper.untilSlotFreed) sleeper.done();
      });
      this.working.add(slot);
    }
  }

  private sleep(ms: number, untilSlotFreed: boolean): Promise<void> {
    if (this.signalled || !this.claiming) return Promise.resolve();
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
        await this.work.turn(this.claimLoop);
      } catch (error) {
        this.logger.error({ err: error }, `${this.work.settings.name}: claim loop failed; retrying`);
        await new Promise((resolve) => setTimeout(resolve, this.work.settings.pollMs));
      }
    }
  }
}
