import { GuardedHttpClient } from '../../lib/guarded-http.js';
import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings } from '../../lib/lease-worker.js';
import type { Services } from '../../services.js';
import { EVENTS_CHANNEL } from '../events/emit.js';
import { type AttemptOutcome, attemptDelivery, type SendingDelivery, type SendingHook } from './attempt.js';
import { DELIVERIES_CHANNEL, dispatchPending } from './dispatcher.js';
import { recordOutcome, releaseLeases, renewLeases, type Success, successRecorder } from './outcome.js';
import type { Batcher } from '../../lib/batcher.js';

/** Due deliveries are looked for at least this often: retries coming due, leases run out, a missed NOTIFY. */
const IDLE_POLL_MS = 1000;
/** Undispatched events are looked for at least this often, NOTIFY or not (a listener that lost its connection). */
const DISPATCH_SWEEP_MS = 1000;
const DISPATCH_BATCH = 500;
/**
 * Deliveries a worker leases beyond its slots, per slot: a fan-out leases what it creates up to this backlog, so a
 * burst is not inserted unleased and leased again by a claim (a second UPDATE, a wake-up and a round trip each).
 */
const BACKLOG_PER_SLOT = 4;

type Claimed = { delivery: SendingDelivery; hook: SendingHook };

/**
 * Sends deliveries: fans out new events, claims due deliveries under a lease (FOR UPDATE SKIP LOCKED, so any
 * number of workers share the table without sending one twice), sends up to `concurrency` at once, records
 * each outcome. It wakes on NOTIFY from committed events and deliveries, and polls once a second for retries
 * that come due. The leases of what it holds are renewed while it lives; a worker that dies mid-attempt leaves
 * leases that run out within `WEBHOOK_LEASE_SECONDS`; another worker then sends the delivery again with the
 * same id, which is the receiver's de-duplication key.
 */
export class DeliverySending implements LeasedWork<Claimed, AttemptOutcome> {
  readonly settings: LeaseWorkerSettings;
  private readonly client: GuardedHttpClient;
  private readonly successes: Batcher<Success>;
  /** Events were committed since the last fan-out. */
  private eventsDue = true;
  private lastDispatchAt = 0;
  /** Deliveries were queued for anyone (NOTIFY), or the last claim was full: look before the next poll. */
  private deliveriesDue = true;
  private lastClaimAt = 0;
  /** Deliveries per event of the last fan-out: how many events fill the backlog's free places. */
  private deliveriesPerEvent = 1;

  constructor(private readonly services: Services) {
    const { concurrency, caFile, leaseSeconds, connectionsPerHost } = services.config.webhooks;
    this.settings = {
      name: 'socialgate-deliveries',
      channels: [EVENTS_CHANNEL, DELIVERIES_CHANNEL],
      concurrency,
      pollMs: IDLE_POLL_MS,
      loops: 1,
      leaseSeconds,
      backlog: concurrency * BACKLOG_PER_SLOT,
    };
    this.client = new GuardedHttpClient(services.addressGuard, { caFile, connections: connectionsPerHost });
    this.successes = successRecorder(services.db);
  }

  heard(channel: string | null): void {
    // After a reconnection (no channel) both may have been missed.
    if (channel !== DELIVERIES_CHANNEL) this.eventsDue = true;
    if (channel !== EVENTS_CHANNEL) this.deliveriesDue = true;
  }

  async turn(loop: ClaimLoop<Claimed>): Promise<void> {
    // Fan-out only when events were committed (NOTIFY), or now and then in case a NOTIFY was missed.
    if (this.eventsDue || Date.now() - this.lastDispatchAt >= DISPATCH_SWEEP_MS) {
      this.eventsDue = false;
      this.lastDispatchAt = Date.now();
      // A full batch may leave more behind; a short one means none were left when it looked.
      for (let full = true; full && loop.claiming;) {
        // With its backlog more than half full, this worker leaves new events to any other with room, or to itself
        // once half of it is sent: a fan-out then leases all it creates (those it cannot lease wait for any worker).
        const places = loop.room + loop.spare;
        if (loop.room === 0 && places < (this.settings.concurrency * BACKLOG_PER_SLOT) / 2) {
          this.eventsDue = true;
          break;
        }
        await loop.claim(places, async (n) => {
          const batchSize = Math.max(1, Math.min(DISPATCH_BATCH, Math.floor(n / this.deliveriesPerEvent)));
          const { events, deliveries, claimed } = await dispatchPending(this.services, { batchSize, claim: n });
          if (events > 0) this.deliveriesPerEvent = Math.max(1, deliveries / events);
          full = events === batchSize;
          return claimed;
        });
      }
    }
    if (!loop.claiming) return;
    // What fan-out leased to this worker is sent already; a claim is for what waits for anyone.
    const sinceClaim = Date.now() - this.lastClaimAt;
    if (!this.deliveriesDue && sinceClaim < IDLE_POLL_MS) return loop.sleep(IDLE_POLL_MS - sinceClaim);
    const room = loop.room;
    if (room <= 0) return loop.sleep(IDLE_POLL_MS, true);
    this.deliveriesDue = false;
    this.lastClaimAt = Date.now();
    const taken = await loop.claim(room, (n) => this.claim(n));
    // As many as asked for: there may be more. Fewer: nothing more is due now; sleep until a NOTIFY or the poll.
    if (taken === room) this.deliveriesDue = true;
    else await loop.sleep(IDLE_POLL_MS);
  }

  process({ delivery, hook }: Claimed): Promise<AttemptOutcome> {
    return attemptDelivery(this.client, delivery, hook, this.services.secrets, this.services.config.webhooks);
  }

  record({ delivery }: Claimed, outcome: AttemptOutcome): Promise<void> {
    this.services.usage.record(delivery.ownerId, envelopeProfileId(delivery.body), 'webhookDeliveries');
    return outcome.errorClass === null
      ? this.successes.add({ delivery, outcome })
      : recordOutcome(this.services.db, delivery, outcome, this.services.config.webhooks);
  }

  renew(held: Claimed[]): Promise<void> {
    return renewLeases(
      this.services.db,
      held.map(({ delivery }) => delivery.id),
      this.services.config.webhooks.leaseSeconds,
    );
  }

  release(waiting: Claimed[]): Promise<void> {
    return releaseLeases(
      this.services.db,
      waiting.map(({ delivery }) => delivery.id),
    );
  }

  describe({ delivery }: Claimed): Record<string, unknown> {
    return { deliveryId: delivery.id };
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** Leases up to `room` due deliveries and reads their hooks, in one statement. */
  private async claim(room: number): Promise<Claimed[]> {
    const { db, config } = this.services;
    const { rows } = (await db.raw(
      `
      WITH due AS (
        SELECT id FROM deliveries
        WHERE status IN ('pending', 'retrying') AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED
      )
      UPDATE deliveries d SET locked_until = now() + make_interval(secs => ?)
      FROM due, hooks h WHERE d.id = due.id AND h.id = d.hook_id
      RETURNING d.id, d.hook_id AS "hookId", d.owner_id AS "ownerId", d.event, d.body, json_build_object('id', h.id, 'url', h.url, 'secretCiphertext', h.secret_ciphertext,
          'previousSecretCiphertext', h.previous_secret_ciphertext, 'previousSecretExpiresAt', h.previous_secret_expires_at) AS hook`,
      [room, config.webhooks.leaseSeconds],
    )) as { rows: Array<SendingDelivery & { hook: SendingHook }> };
    return rows.map(({ hook, ...delivery }) => {
      if (hook.previousSecretExpiresAt) hook.previousSecretExpiresAt = new Date(hook.previousSecretExpiresAt);
      return { delivery, hook };
    });
  }
}

/** The profile of the event a delivery carries (its envelope's `profileId`), whose usage the attempt is. */
function envelopeProfileId(body: string): string | null {
  const { profileId } = JSON.parse(body) as { profileId?: unknown };
  return typeof profileId === 'string' ? profileId : null;
}
