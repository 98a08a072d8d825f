import { type LeasedWork, LeaseWorker } from '../../src/lib/lease-worker.js';
import { AiTaskWork } from '../../src/modules/ai/worker.js';
import { RunPerforming } from '../../src/modules/automations/worker.js';
import { DeliverySending } from '../../src/modules/hooks/worker.js';
import { TargetPublishing } from '../../src/modules/publishing/worker.js';
import type { Services } from '../../src/services.js';
import type { TestApp } from './app.js';

/** The work of each of an app's workers, by the app's name for the worker. */
const WORK: Record<'deliveries' | 'publishing' | 'ai' | 'automations', (services: Services) => LeasedWork<unknown, unknown>> = {
  deliveries: (services) => new DeliverySending(services),
  publishing: (services) => new TargetPublishing(services),
  ai: (services) => new AiTaskWork(services) as LeasedWork<unknown, unknown>,
  automations: (services) => new RunPerforming(services),
};

/** A worker that can die as a process does, all at once. */
class MortalWorker<Item, Result> extends LeaseWorker<Item, Result> {
  private readonly life: { dead: boolean };

  constructor(services: Services, work: LeasedWork<Item, Result>) {
    const life = { dead: false };
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
    private readonly kind: keyof typeof WORK,
    private worker: MortalWorker<unknown, unknown>,
  ) {}

  static async standIn(app: TestApp, kind: keyof typeof WORK): Promise<CrashableWorker> {
    await app[kind]!.stop();
    const crashable = new CrashableWorker(app, kind, new MortalWorker(app.services, WORK[kind](app.services)));
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
    this.worker = new MortalWorker(this.app.services, WORK[this.kind](this.app.services));
    await this.worker.start();
  }

  async stop(): Promise<void> {
    await this.worker.stop();
  }
}
