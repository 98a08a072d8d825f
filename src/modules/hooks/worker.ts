import { NotificationListener } from '../../lib/listener.js';
import { GuardedHttpClient } from '../../lib/guarded-http.js';
import type { Services } from '../../services.js';
import { EVENTS_CHANNEL } from '../events/emit.js';
import { attemptDelivery, type SendingDelivery, type SendingHook } from './attempt.js';
import { DELIVERIES_CHANNEL, dispatchPending } from './dispatcher.js';
import { recordOutcome, type Success, successRecorder } from './outcome.js';
import type { BatchWriter } from '../../lib/batch-writer.js';

/** Due deliveries are looked for at least this often: retries coming due, leases run out, a missed NOTIFY. */
const IDLE_POLL_MS = 1000;
/** Undispatched events are looked for at least this often, NOTIFY or not (a listener that lost its connection). */
const DISPATCH_SWEEP_MS = 1000;

type Claimed = { delivery: SendingDelivery; hook: SendingHook };

/**
 * Sends deliveries: fans out new events, claims due deliveries under a lease (FOR UPDATE SKIP LOCKED, so any
 * number of workers share the table without sending one twice), sends up to `concurrency` at once, records
 * each outcome. It wakes on NOTIFY from committed events and deliveries, and polls once a second for retries
 * that come due. A worker that dies mid-attempt leaves a lease that runs out; another worker then sends the
 * delivery again with the same id, which is the receiver's de-duplication key.
 */
export class DeliveryWorker {
  private readonly client: GuardedHttpClient;
  private readonly successes: BatchWriter<Success>;
  private listener: NotificationListener | undefined;
  private running = false;
  private abandoned = false;
  private inFlight = new Set<Promise<void>>();
  /** A NOTIFY came since the loop last looked: it looks again before sleeping. */
  private signalled = true;
  /** Events were committed since the last fan-out. */
  private eventsDue = true;
  private lastDispatchAt = 0;
  /** Deliveries were queued for anyone (NOTIFY), or the last claim was full: look before the next poll. */
  private deliveriesDue = true;
  private lastClaimAt = 0;
  private wake: (() => void) | undefined;
  private slotFreed: (() => void) | undefined;
  private loopDone: Promise<void> | undefined;

  constructor(private readonly services: Services, private readonly databaseUrl: string) {
    this.client = new GuardedHttpClient(services.addressGuard, {
      caFile: services.config.webhooks.caFile, connections: Math.max(10, services.config.webhooks.concurrency),
    });
    this.successes = successRecorder(services.db);
  }

  async start(): Promise<void> {
    this.listener = new NotificationListener(this.databaseUrl, [EVENTS_CHANNEL, DELIVERIES_CHANNEL], (channel) => {
      // After a reconnection (no channel) both may have been missed.
      if (channel !== DELIVERIES_CHANNEL) this.eventsDue = true;
      if (channel !== EVENTS_CHANNEL) this.deliveriesDue = true;
      this.signal();
    }, this.services.logger, 'socialgate-deliveries');
    await this.listener.start();
    this.running = true;
    this.loopDone = this.loop();
  }

  /** Stops claiming, waits for attempts in flight (bounded by the HTTP timeout) and their records, then closes. */
  async stop(): Promise<void> {
    this.running = false;
    this.signal();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
    await this.listener?.stop();
    await this.client.close();
  }

  /** Stops at once without waiting: what a killed process would leave behind (for tests of the crash case). */
  async abandon(): Promise<void> {
    this.running = false;
    this.abandoned = true;
    this.successes.drop();
    this.signal();
    await this.listener?.stop();
    await this.client.close().catch(() => {});
  }

  private signal(): void {
    this.signalled = true;
    this.wake?.();
  }

  private async loop(): Promise<void> {
    const { concurrency } = this.services.config.webhooks;
    while (this.running) {
      try {
        this.signalled = false;
        // Fan-out only when events were committed (NOTIFY), or now and then in case a NOTIFY was missed.
        if (this.eventsDue || Date.now() - this.lastDispatchAt >= DISPATCH_SWEEP_MS) {
          this.eventsDue = false;
          this.lastDispatchAt = Date.now();
          // A full batch may leave more behind; a short one means none were left when it looked.
          for (let full = true; full && this.running;) {
            const batchSize = 500;
            const { events, claimed } = await dispatchPending(this.services, { batchSize, claim: concurrency - this.inFlight.size });
            this.send(claimed);
            full = events === batchSize;
          }
        }
        if (!this.running) break;
        // What fan-out leased to this worker is sent already; a claim is for what waits for anyone.
        const sinceClaim = Date.now() - this.lastClaimAt;
        if (!this.deliveriesDue && sinceClaim < IDLE_POLL_MS) {
          await this.sleep(IDLE_POLL_MS - sinceClaim, false);
          continue;
        }
        const room = concurrency - this.inFlight.size;
        if (room <= 0) {
          await this.sleep(IDLE_POLL_MS, true);
          continue;
        }
        this.deliveriesDue = false;
        this.lastClaimAt = Date.now();
        // As many as asked for: there may be more. Fewer: nothing more is due now; sleep until a NOTIFY or the poll.
        if ((await this.claim(room)) === room) this.deliveriesDue = true;
        else await this.sleep(IDLE_POLL_MS, false);
      } catch (error) {
        this.services.logger.error({ err: error }, 'delivery loop failed; retrying');
        await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
      }
    }
  }

  /** Until a NOTIFY, `ms`, or (when waiting for room) an attempt finishing. Returns at once if signalled already. */
  private sleep(ms: number, untilSlotFreed: boolean): Promise<void> {
    if (this.signalled || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.slotFreed = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
      if (untilSlotFreed) this.slotFreed = done;
    });
  }

  /**
   * Leases up to `room` due deliveries and reads their hooks, in one statement, and starts sending them.
   * Returns how many it claimed.
   */
  private async claim(room: number): Promise<number> {
    const { db, config } = this.services;
    const { rows } = await db.raw(`
      WITH due AS (
        SELECT id FROM deliveries
        WHERE status IN ('pending', 'retrying') AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED
      )
      UPDATE deliveries d SET locked_until = now() + make_interval(secs => ?)
      FROM due, hooks h WHERE d.id = due.id AND h.id = d.hook_id
      RETURNING d.id, d.hook_id AS "hookId", d.event, d.body, json_build_object('id', h.id, 'url', h.url, 'secretCiphertext', h.secret_ciphertext,
          'previousSecretCiphertext', h.previous_secret_ciphertext, 'previousSecretExpiresAt', h.previous_secret_expires_at) AS hook`,
    [room, config.webhooks.leaseSeconds]) as { rows: Array<SendingDelivery & { hook: SendingHook }> };
    this.send(rows.map(({ hook, ...delivery }) => {
      if (hook.previousSecretExpiresAt) hook.previousSecretExpiresAt = new Date(hook.previousSecretExpiresAt);
      return { delivery, hook };
    }));
    return rows.length;
  }

  /** Sends leased deliveries, each recorded when it ends; up to `concurrency` are in flight. */
  private send(deliveries: Claimed[]): void {
    const { db, config, secrets } = this.services;
    for (const { delivery, hook } of deliveries) {
      const task = attemptDelivery(this.client, delivery, hook, secrets, config.webhooks)
        .then((outcome) => {
          if (this.abandoned) return undefined;
          return outcome.errorClass === null
            ? this.successes.add({ delivery, outcome })
            : recordOutcome(db, delivery, outcome, config.webhooks);
        })
        .catch((error: unknown) => this.services.logger.error({ err: error, deliveryId: delivery.id }, 'recording a delivery failed'))
        .finally(() => {
          this.inFlight.delete(task);
          this.slotFreed?.();
        });
      this.inFlight.add(task);
    }
  }
}
