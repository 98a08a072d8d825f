import type { Knex } from 'knex';
import { type LeasedWork, LeaseWorker } from '../../src/lib/lease-worker.js';
import { NotificationListener } from '../../src/lib/listener.js';
import type { AnyArea, WorkerWork } from '../../src/modules/area.js';
import { areas } from '../../src/modules/index.js';
import type { StoredWebhook } from '../../src/modules/webhooks/claim.js';
import { WebhookIntake } from '../../src/modules/webhooks/worker.js';
import type { Services } from '../../src/services.js';
import type { TestApp } from './app.js';

/**
 * A worker's life: whether it is dead, and how many more items it processes (for intake: transactions of webhooks
 * it commits) before it dies.
 */
interface Life {
  dead: boolean;
  stepsLeft: number;
  die(): void;
}

/** Never settles: what a dead process was doing. */
const never = <T>() => new Promise<T>(() => {});

/**
 * Intake that dies with a transaction of webhooks handled and not committed yet (after committing `stepsLeft`):
 * that transaction is rolled back, as PostgreSQL rolls back the work of a connection that drops, and nothing
 * after the death is begun.
 */
class MortalIntake extends WebhookIntake {
  constructor(
    services: Services,
    private readonly life: Life,
  ) {
    super(services);
  }

  protected override handle(webhooks: StoredWebhook[]): Promise<void> {
    return this.life.dead ? never() : super.handle(webhooks);
  }

  override async handleIn(trx: Knex.Transaction, webhooks: StoredWebhook[]): Promise<void> {
    await super.handleIn(trx, webhooks);
    if (this.life.stepsLeft-- > 0) return;
    this.life.die();
    throw new Error('the intake worker died before its transaction committed');
  }
}

/** The work of every area's workers, by the worker's name (`src/modules/<area>/index.ts`, `workers`). */
const WORK = new Map<string, WorkerWork>((areas as readonly AnyArea[]).flatMap((area) => Object.entries(area.workers ?? {})));

/**
 * The work of a worker that can die, by its name. Intake commits its webhooks inside `process`, so it dies inside
 * a transaction; any other work dies as it has processed an item, before recording it (for automations: the run
 * whose actions were done last is never finished).
 */
function mortalWork(services: Services, kind: string, life: Life): { work: LeasedWork<never, unknown>; diesAfterProcess: boolean } {
  if (kind === 'intake') return { work: new MortalIntake(services, life) as LeasedWork<never, unknown>, diesAfterProcess: false };
  const make = WORK.get(kind);
  const work = make?.(services);
  if (!work || !('turn' in work)) throw new Error(`no area has a leased worker named ${kind}`);
  return { work, diesAfterProcess: true };
}

/** A worker that can die as a process does, all at once. */
class MortalWorker extends LeaseWorker<never, unknown> {
  readonly life: Life;
  /** Its process's listener, which dies with it. */
  private readonly ownListener: NotificationListener;

  constructor(services: Services, kind: string) {
    const life: Life = { dead: false, stepsLeft: Infinity, die: () => {} };
    const { work, diesAfterProcess } = mortalWork(services, kind, life);
    const listener = new NotificationListener(services.config.databaseUrl!, services.logger, `mortal ${kind}`);
    super(listener, services.logger, {
      settings: work.settings,
      turn: (loop) => work.turn(loop),
      // Nothing claimed once dead is worked on, nothing in flight is ever recorded or renewed: its leases run out.
      process: async (item) => {
        if (life.dead) return never();
        const result = await work.process(item);
        if (diesAfterProcess && !life.dead && life.stepsLeft-- <= 0) life.die();
        return result;
      },
      record: async (item, result) => {
        if (!life.dead) await work.record(item, result);
      },
      renew: async (items) => {
        if (!life.dead) await work.renew(items);
      },
      describe: (item) => work.describe(item),
      // Only a clean stop gives leases back: a dead worker's run out.
      release: async (items) => work.release?.(items),
      heard: (channel) => work.heard?.(channel),
      close: async () => work.close?.(),
    });
    this.life = life;
    this.ownListener = listener;
    life.die = () => void this.crash();
  }

  override async start(): Promise<void> {
    await this.ownListener.start();
    await super.start();
  }

  /** Stops on the spot: nothing more is claimed or recorded, nothing is waited for, its connections are dropped. */
  async crash(): Promise<void> {
    this.life.dead = true;
    void this.stopClaiming();
    await this.disconnect();
    await this.ownListener.stop();
  }

  /** A dead process is not stopped: it is gone. */
  override async stop(): Promise<void> {
    if (this.life.dead) return;
    await super.stop();
    await this.ownListener.stop();
  }
}

/**
 * Stands in for one of an app's workers with workers of the same kind on its database, which can be killed as a
 * dying process would be: what one has in flight is never recorded, its connections (LISTEN, its own HTTP
 * clients, so a call through those ends there) are dropped, and nothing waits for it. The app's own worker is
 * stopped first, cleanly, before the test gives it any work. An outcome already handed to a batch before the
 * crash may still commit, as a commit under way when a process dies may.
 */
export class CrashableWorker {
  private constructor(
    private readonly app: TestApp,
    private readonly kind: string,
    private worker: MortalWorker,
  ) {}

  /**
   * `kind` is the app's name for the worker. `dieAfter` (intake): the worker dies before its `dieAfter + 1`th
   * transaction of webhooks commits; (any other) as it has processed its `dieAfter + 1`th item, before recording
   * it (automations: as it has performed the actions of its `dieAfter + 1`th run, before the run is finished).
   */
  static async standIn(app: TestApp, kind: string, { dieAfter = Infinity }: { dieAfter?: number } = {}): Promise<CrashableWorker> {
    const own = app.workers.get(kind);
    if (!own) throw new Error(`the app runs no worker named ${kind}`);
    await own.stop();
    const crashable = new CrashableWorker(app, kind, new MortalWorker(app.services, kind));
    crashable.worker.life.stepsLeft = dieAfter;
    await crashable.worker.start();
    return crashable;
  }

  /** Kills the worker; another takes over what it held once the leases run out. */
  async crash(): Promise<void> {
    await this.worker.crash();
  }

  /** Kills the worker and starts another on the same database, which takes over once the leases run out. */
  async crashAndReplace(): Promise<void> {
    await this.crash();
    await this.replace();
  }

  /** Whether the worker has died (killed, or by itself). */
  get dead(): boolean {
    return this.worker.life.dead;
  }

  /** Starts another worker in place of one that died by itself; it takes over once the leases run out. */
  async replace(): Promise<void> {
    this.worker = new MortalWorker(this.app.services, this.kind);
    await this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
  }
}
