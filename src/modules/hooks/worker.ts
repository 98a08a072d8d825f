import pg from 'pg';
import { GuardedHttpClient } from '../../lib/guarded-http.js';
import type { Services } from '../../services.js';
import { EVENTS_CHANNEL } from '../events/emit.js';
import { attemptDelivery } from './attempt.js';
import { DELIVERIES_CHANNEL, dispatchPending } from './dispatcher.js';
import { type DeliveryRow, HookRow } from './models.js';
import { recordOutcome } from './outcome.js';

const IDLE_POLL_MS = 1000;

/**
 * Sends deliveries: fans out new events, claims due deliveries under a lease (FOR UPDATE SKIP LOCKED, so any
 * number of workers share the table without sending one twice), sends up to `concurrency` at once, records
 * each outcome. It wakes on NOTIFY from committed events and deliveries, and polls once a second for retries
 * that come due. A worker that dies mid-attempt leaves a lease that runs out; another worker then sends the
 * delivery again with the same id, which is the receiver's de-duplication key.
 */
export class DeliveryWorker {
  private readonly client: GuardedHttpClient;
  private listener: pg.Client | undefined;
  private running = false;
  private abandoned = false;
  private inFlight = new Set<Promise<void>>();
  private wake: (() => void) | undefined;
  private loopDone: Promise<void> | undefined;

  constructor(private readonly services: Services, private readonly databaseUrl: string) {
    this.client = new GuardedHttpClient(services.addressGuard, {
      caFile: services.config.webhooks.caFile, connections: Math.max(10, services.config.webhooks.concurrency),
    });
  }

  async start(): Promise<void> {
    this.listener = new pg.Client({ connectionString: this.databaseUrl });
    await this.listener.connect();
    this.listener.on('notification', () => this.wake?.());
    this.listener.on('error', (error) => this.services.logger.warn({ err: error }, 'delivery listener lost'));
    await this.listener.query(`LISTEN ${EVENTS_CHANNEL}`);
    await this.listener.query(`LISTEN ${DELIVERIES_CHANNEL}`);
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Stops claiming, waits for attempts in flight (bounded by the HTTP timeout), then closes. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
    await this.listener?.end().catch(() => {});
    await this.client.close();
  }

  /** Stops at once without waiting: what a killed process would leave behind (for tests of the crash case). */
  async abandon(): Promise<void> {
    this.running = false;
    this.abandoned = true;
    this.wake?.();
    await this.listener?.end().catch(() => {});
    await this.client.close().catch(() => {});
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        while (this.running && (await dispatchPending(this.services)) > 0);
        const claimed = this.running ? await this.claim(this.services.config.webhooks.concurrency - this.inFlight.size) : 0;
        if (claimed === 0) await this.idle();
      } catch (error) {
        this.services.logger.error({ err: error }, 'delivery loop failed; retrying');
        await this.idle();
      }
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, IDLE_POLL_MS);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async claim(room: number): Promise<number> {
    if (room <= 0) {
      await Promise.race(this.inFlight);
      return 1;
    }
    const { db, config, secrets } = this.services;
    const lease = config.webhooks.leaseSeconds;
    const due = db('deliveries').select('id')
      .whereIn('status', ['pending', 'retrying'])
      .where('nextAttemptAt', '<=', db.fn.now())
      .where((q) => q.whereNull('lockedUntil').orWhere('lockedUntil', '<', db.fn.now()))
      .orderBy('nextAttemptAt').limit(room).forUpdate().skipLocked();
    const deliveries = await db('deliveries').whereIn('id', due)
      .update({ lockedUntil: db.raw('now() + make_interval(secs => ?)', [lease]) })
      .returning('*') as DeliveryRow[];
    if (deliveries.length === 0) return 0;
    const hooks = new Map((await HookRow.query(db).whereIn('id', [...new Set(deliveries.map((d) => d.hookId))])).map((h) => [h.id, h]));
    for (const delivery of deliveries) {
      const hook = hooks.get(delivery.hookId);
      if (!hook) continue;
      const task = attemptDelivery(this.client, delivery, hook, secrets, config.webhooks)
        .then((outcome) => (this.abandoned ? undefined : recordOutcome(db, delivery, outcome, config.webhooks)))
        .catch((error: unknown) => this.services.logger.error({ err: error, deliveryId: delivery.id }, 'recording a delivery failed'))
        .finally(() => {
          this.inFlight.delete(task);
          this.wake?.();
        });
      this.inFlight.add(task);
    }
    return deliveries.length;
  }
}
