import type { Knex } from 'knex';
import { type LeasedWork, LeaseWorker } from '../../src/lib/lease-worker.js';
import { AiTaskWork } from '../../src/modules/ai/worker.js';
import type { RunRecord } from '../../src/modules/automations/records.js';
import { RunPerforming } from '../../src/modules/automations/worker.js';
import { DeliverySending } from '../../src/modules/hooks/worker.js';
import { TargetPublishing } from '../../src/modules/publishing/worker.js';
import type { StoredWebhook } from '../../src/modules/webhooks/claim.js';
import { WebhookIntake } from '../../src/modules/webhooks/worker.js';
import type { Services } from '../../src/services.js';
import type { TestApp } from './app.js';

/**
 * A worker's life: whether it is dead, and how many more transactions of webhooks it commits (intake) or runs it
 * performs (automations) before it dies.
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

/** Runs performed where the process dies: the run whose actions were done last is never finished. */
class MortalRuns extends RunPerforming {
  constructor(
    services: Services,
    private readonly life: Life,
  ) {
    super(services);
  }

  override async process(run: RunRecord): ReturnType<RunPerforming['process']> {
    const result = await super.process(run);
    if (!this.life.dead && this.life.stepsLeft-- <= 0) this.life.die();
    return result;
  }
}

type Kind = 'deliveries' | 'publishing' | 'ai' | 'automations' | 'intake';

/** The work of each of an app's workers, by the app's name for the worker. */
const WORK: Record<Kind, (services: Services, life: Life) => LeasedWork<unknown, unknown>> = {
  deliveries: (services) => new DeliverySending(services),
  publishing: (services) => new TargetPublishing(services),
  ai: (services) => new AiTaskWork(services) as LeasedWork<unknown, unknown>,
  automations: (services, life) => new MortalRuns(services, life) as LeasedWork<unknown, unknown>,
  intake: (services, life) => new MortalIntake(services, life) as LeasedWork<unknown, unknown>,
};

/** A worker that can die as a process does, all at once. */
class MortalWorker<Item, Result> extends LeaseWorker<Item, Result> {
  readonly life: Life;

  constructor(services: Services, makeWork: (life: Life) => LeasedWork<Item, Result>) {
    const life: Life = { dead: false, stepsLeft: Infinity, die: () => {} };
    const work = makeWork(life);
    super(services.config.databaseUrl!, services.logger, {
      settings: work.settings,
      turn: (loop) => work.turn(loop),
      // Nothing claimed once dead is worked on, nothing in flight is ever recorded or renewed: its leases run out.
      process: (item) => (life.dead ? new Promise<Result>(() => {}) : work.process(item)),
      record: async (item, result) => {
        if (!life.dead) await work.record(item, result);
      },
      renew: async (items) => {
        if (!life.dead) await work.renew(items);
      },
      describe: (item) => work.describe(item),
      heard: (channel) => work.heard?.(channel),
      close: async () => work.close?.(),
    });
    this.life = life;
    life.die = () => void this.crash();
  }

  /** Stops on the spot: nothing more is claimed or recorded, nothing is waited for, its connections are dropped. */
  async crash(): Promise<void> {
    this.life.dead = true;
    void this.stopClaiming();
    await this.disconnect();
  }

  /** A dead process is not stopped: it is gone. */
  override stop(): Promise<void> {
    return this.life.dead ? Promise.resolve() : super.stop();
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
    private readonly kind: Kind,
    private worker: MortalWorker<unknown, unknown>,
  ) {}

  /**
   * `dieAfter` (intake): the worker dies before its `dieAfter + 1`th transaction of webhooks commits; (automations)
   * as it has performed the actions of its `dieAfter + 1`th run, before the run is finished.
   */
  static async standIn(app: TestApp, kind: Kind, { dieAfter = Infinity }: { dieAfter?: number } = {}): Promise<CrashableWorker> {
    await app[kind]!.stop();
    const crashable = new CrashableWorker(app, kind, new MortalWorker(app.services, (life) => WORK[kind](app.services, life)));
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
    this.worker = new MortalWorker(this.app.services, (life) => WORK[this.kind](this.app.services, life));
    await this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
  }
}
