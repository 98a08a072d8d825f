import { type ClaimLoop, type LeasedWork, LeaseWorker, type LeaseWorkerSettings } from '../../lib/lease-worker.js';
import type { Services } from '../../services.js';
import { type Batch, claimBatches, releaseLeases, renewLeases, type StoredWebhook } from './claim.js';
import { markProcessed, processWebhook } from './process.js';
import { BatchWriter } from '../../lib/batch-writer.js';
import { INTAKE_CHANNEL } from './receive.js';

/** Stored webhooks are looked for at least this often, NOTIFY or not: retries coming due, leases run out, a lost wake-up. */
const POLL_MS = 1000;

/** Processed marks written in one statement at most. */
const MARK_BATCH = 200;

/** What a batch left unprocessed: the webhooks after one that failed, given back in order. */
type Left = StoredWebhook[];

/**
 * Processes stored platform webhooks: claims, under a lease, the next webhooks of intake keys nobody holds (an
 * account, or a platform signing for all its accounts), works on up to `concurrency` keys at once, each key's
 * webhooks one after another in the order received, so two events of one conversation are never handled at once
 * or out of order. A webhook stored wakes it at once (NOTIFY); it polls every second as well. A failure is
 * recorded on the webhook and holds back that key's later webhooks until its retry (or until it is given up).
 * A worker that dies mid-batch stops renewing its leases; once they run out, another goes on from the first
 * webhook not marked processed (the one in flight at the crash may be handled again: processing is idempotent).
 */
export class IntakeWorker extends LeaseWorker<Batch, Left> {
  constructor(services: Services, databaseUrl: string) {
    super(databaseUrl, services.logger, new WebhookIntake(services));
  }
}

/** The platform webhooks' side of an `IntakeWorker`: what it claims, how it processes, what it gives back. */
export class WebhookIntake implements LeasedWork<Batch, Left> {
  readonly settings: LeaseWorkerSettings;
  /** Processed marks, committed together across batches: a batch goes on to its next webhook meanwhile. */
  private readonly marks: BatchWriter<string>;

  constructor(private readonly services: Services) {
    const { concurrency, leaseSeconds } = services.config.intake;
    this.settings = { name: 'socialgate-intake', channels: [INTAKE_CHANNEL], concurrency, pollMs: POLL_MS, loops: 1, leaseSeconds };
    this.marks = new BatchWriter((ids) => markProcessed(services.db, ids), MARK_BATCH);
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
   * The batch's webhooks one after another; a failure stops it, and what is left is given back. The batch ends
   * (its slot frees, its key may be claimed again) once its marks are committed. A mark lost in a crash means the
   * webhook is handled again by the next worker, which changes nothing more.
   */
  async process(batch: Batch): Promise<Left> {
    const marked: Array<Promise<void>> = [];
    try {
      for (const [index, webhook] of batch.webhooks.entries()) {
        if (!(await this.processOne(webhook))) return batch.webhooks.slice(index + 1);
        const mark = this.marks.add(webhook.id);
        // Awaited below, whenever it settles.
        mark.catch(() => {});
        marked.push(mark);
      }
      return [];
    } finally {
      await Promise.all(marked);
    }
  }

  /** One webhook; false when it failed (recorded on it), which stops its batch. */
  processOne(webhook: StoredWebhook): Promise<boolean> {
    return processWebhook(this.services, webhook);
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
