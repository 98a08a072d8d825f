import type { Knex } from 'knex';
import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings } from '../../lib/lease-worker.js';
import type { Services } from '../../services.js';
import { type Batch, claimBatches, releaseLeases, renewLeases, type StoredWebhook } from './claim.js';
import { handleWebhooks, recordFailure } from './process.js';
import { INTAKE_CHANNEL } from './wake.js';

/** Stored webhooks are looked for at least this often, NOTIFY or not: retries coming due, leases run out, a lost wake-up. */
const POLL_MS = 1000;

/** What a batch left unprocessed: the webhooks after one that failed, given back in order. */
type Left = StoredWebhook[];

/**
 * Processes stored platform webhooks: claims, under a lease, the next webhooks of intake keys nobody holds (an
 * account, or a platform signing for all its accounts), works on up to `concurrency` keys at once, each key's
 * webhooks one after another in the order received, so two events of one conversation are never handled at once
 * or out of order. A webhook stored wakes it at once (NOTIFY); it polls every second as well. A failure is
 * recorded on the webhook and holds back that key's later webhooks until its retry (or until it is given up).
 * A worker that dies mid-batch stops renewing its leases and commits nothing more; once they run out, another
 * goes on from the first webhook not marked processed.
 */
export class WebhookIntake implements LeasedWork<Batch, Left> {
  readonly settings: LeaseWorkerSettings;

  constructor(private readonly services: Services) {
    const { concurrency, leaseSeconds } = services.config.intake;
    this.settings = { name: 'socialgate-intake', channels: [INTAKE_CHANNEL], concurrency, pollMs: POLL_MS, loops: 1, leaseSeconds };
  }

  async turn(loop: ClaimLoop<Batch>): Promise<void> {
    const room = loop.room;
    if (room <= 0) return loop.sleep(POLL_MS, true);
    const { batchSize, leaseSeconds } = this.services.config.intake;
    const taken = await loop.claim(room, (n) => claimBatches(this.services.db, n, batchSize, leaseSeconds));
    // Keys busy with another worker, or nothing due: wait for a NOTIFY, a batch ending (its key may have more), or the poll.
    if (taken < room) await loop.sleep(POLL_MS, taken > 0 || loop.busy > 0);
  }

  /**
   * The whole batch in one transaction, which is what keeps up with a busy account: its statements are shared by
   * all its webhooks. When that fails, the webhooks one after another, each in its own: those before the one
   * that fails are processed, it is recorded as failed, and what is left is given back.
   */
  async process(batch: Batch): Promise<Left> {
    const { webhooks } = batch;
    if (webhooks.length > 1) {
      try {
        await this.handle(webhooks);
        return [];
      } catch (error) {
        this.services.logger.debug({ err: error, ...this.describe(batch) }, 'a batch of platform webhooks failed; taking them one by one');
      }
    }
    for (const [index, webhook] of webhooks.entries()) {
      try {
        await this.handle([webhook]);
      } catch (error) {
        await recordFailure(this.services, webhook, error);
        return webhooks.slice(index + 1);
      }
    }
    return [];
  }

  /** Handles webhooks and marks them processed, in one transaction. */
  protected handle(webhooks: StoredWebhook[]): Promise<void> {
    return this.services.db.transaction((trx) => this.handleIn(trx, webhooks));
  }

  /** The work of `handle`, inside its transaction. */
  handleIn(trx: Knex.Transaction, webhooks: StoredWebhook[]): Promise<void> {
    return handleWebhooks(this.services, trx, webhooks);
  }
  record(_batch: Batch, left: Left): Promise<void> {
    return releaseLeases(
      this.services.db,
      left.map(({ id }) => id),
    );
  }

  renew(held: Batch[]): Promise<void> {
    return renewLeases(
      this.services.db,
      held.flatMap(({ webhooks }) => webhooks.map(({ id }) => id)),
      this.services.config.intake.leaseSeconds,
    );
  }

  describe({ key, webhooks }: Batch): Record<string, unknown> {
    return { intakeKey: key, platformWebhookIds: webhooks.map(({ id }) => id) };
  }
}
