import { ApiError } from '../../lib/errors.js';
import {
  type ClaimLoop,
  claimInBatches,
  type DueRows,
  dueRowIds,
  type LeasedWork,
  type LeaseWorkerSettings,
} from '../../lib/lease-worker.js';
import { BatchHandleUnknown, type Commerce } from '../../platforms/capabilities/commerce.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { PlatformRateLimitedError } from '../accounts/errors.js';
import { ownerItself } from '../auth/principal.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { withCommerce } from './access.js';
import { COMMERCE_CHANNEL } from './batches.js';
import { readProducts } from './import.js';
import { type PartOutcome, recordPart } from './part-outcome.js';
import type { ItemRow, PartRow } from './rows.js';

const POLL_MS = 500;
const CLAIM_BATCH = 20;

/** The parts still to send or follow, as the partial index `commerce_batch_parts_due` says. */
export const DUE_PARTS: DueRows = { pending: (parts) => parts.where('status', '<>', 'done'), key: ['batchId', 'part'] };

/** A part as the worker claims it, with what the platform call needs. */
export type ClaimedPart = PartRow & { ownerId: string; platformCatalogId: string };

/**
 * Sends and follows platform batches, draining `commerce_batch_parts` under a lease (SKIP LOCKED). An unsent part
 * is sent through the platform-write ledger (one key per part and sending), so a worker that dies after the
 * platform answered replays the handle instead of sending again, and a lost answer is sent again harmlessly
 * (creates are upserts). A sent part is looked at with backoff until the platform has finished it: its lines'
 * errors fail their items, the others succeed and are read back (platform ids, review); a handle the platform
 * forgot is sent again; a part not finished by its give-up time fails what is still pending.
 */
export class CommerceBatchWork implements LeasedWork<ClaimedPart, PartOutcome> {
  readonly settings: LeaseWorkerSettings;

  constructor(private readonly services: Services) {
    const { concurrency, leaseSeconds } = services.config.commerce;
    this.settings = { name: 'socialgate-commerce', channels: [COMMERCE_CHANNEL], concurrency, pollMs: POLL_MS, loops: 1, leaseSeconds };
  }

  turn(loop: ClaimLoop<ClaimedPart>): Promise<void> {
    return claimInBatches(loop, CLAIM_BATCH, POLL_MS, (n) => this.claimDue(n));
  }

  private async claimDue(n: number): Promise<ClaimedPart[]> {
    if (n <= 0) return [];
    const { db, config } = this.services;
    const due = dueRowIds(
      db,
      'commerceBatchParts',
      { pending: (parts) => parts.where('status', '<>', 'done'), key: ['batchId', 'part'] },
      n,
    );
    // knex writes the subquery in parentheses.
    const { rows } = (await db.raw(
      `WITH due AS ?
       UPDATE commerce_batch_parts p SET locked_until = now() + make_interval(secs => ?)
       FROM due, commerce_batches b, commerce_catalogs c
       WHERE p.batch_id = due.batch_id AND p.part = due.part AND b.id = p.batch_id AND c.id = b.catalog_id
       RETURNING p.batch_id AS "batchId", p.part, p.account_id AS "accountId", p.status, p.handle, p.generation, p.attempts,
         p.next_attempt_at AS "nextAttemptAt", p.locked_until AS "lockedUntil", p.give_up_at AS "giveUpAt",
         b.owner_id AS "ownerId", c.platform_catalog_id AS "platformCatalogId"`,
      [due, config.commerce.leaseSeconds],
    )) as { rows: ClaimedPart[] };
    return rows;
  }

  async process(part: ClaimedPart): Promise<PartOutcome> {
    const { config } = this.services;
    const overdue = Date.now() >= new Date(part.giveUpAt).getTime();
    try {
      return await withCommerce(
        this.services,
        ownerItself(part.ownerId),
        { accountId: part.accountId },
        (commerce, account, row) =>
          part.status === 'unsent' ? this.send(commerce, account, row.ownerId, part) : this.look(commerce, account, part, overdue),
        (error) => {
          if (error instanceof BatchHandleUnknown) throw error;
        },
      );
    } catch (error) {
      if (error instanceof BatchHandleUnknown)
        return overdue ? { kind: 'gave_up', seconds: config.commerce.giveUpSeconds } : { kind: 'resend' };
      if (!(error instanceof ApiError)) throw error;
      if (overdue) return { kind: 'failed', message: error.message };
      if (error instanceof PlatformRateLimitedError) return { kind: 'retry', at: new Date(Date.now() + error.retryAfterSeconds * 1000) };
      return { kind: 'retry', at: this.nextLook(part) };
    }
  }

  private async send(commerce: Commerce, account: AdapterAccount, ownerId: string, part: ClaimedPart): Promise<PartOutcome> {
    const items = await this.itemsOf(part);
    const written = await writeOnce(this.services.db, {
      ownerId,
      accountId: part.accountId,
      key: `commerce.batch:${part.batchId}:${part.part}:${part.generation}`,
      kind: 'product.batch',
      request: { batchId: part.batchId, part: part.part, generation: part.generation },
      send: () =>
        commerce.sendBatch(
          account,
          part.platformCatalogId,
          items.map((item) => ({ method: item.method, retailerId: item.retailerId, ...(item.data ? { fields: item.data } : {}) })),
        ),
      // Creates are sent as upserts: a batch whose answer was lost is sent again, and changes nothing twice.
      reconcile: async () => null,
      store: async () => {},
    });
    return { kind: 'sent', handle: written.result, at: this.nextLook({ ...part, attempts: 0 }) };
  }

  private async look(commerce: Commerce, account: AdapterAccount, part: ClaimedPart, overdue: boolean): Promise<PartOutcome> {
    const progress = await commerce.batchProgress(account, part.platformCatalogId, part.handle!);
    if (!progress.finished)
      return overdue
        ? { kind: 'gave_up', seconds: this.services.config.commerce.giveUpSeconds }
        : { kind: 'retry', at: this.nextLook(part) };
    const items = await this.itemsOf(part);
    const failedLines = new Set(progress.errors.map((error) => error.line));
    const kept = items.filter((item, line) => item.method !== 'DELETE' && !failedLines.has(line)).map((item) => item.retailerId);
    const products = await readProducts(commerce, account, part.platformCatalogId, kept);
    return { kind: 'finished', errors: progress.errors, warnings: progress.warnings, products };
  }

  /** The part's items in the order they were sent (its lines). */
  private async itemsOf(part: PartRow): Promise<ItemRow[]> {
    return (await this.services.db('commerceBatchItems').where({ batchId: part.batchId, part: part.part }).orderBy('index')) as ItemRow[];
  }

  /** When to look again: the poll schedule's step for the looks so far (its last step repeats). */
  private nextLook(part: Pick<PartRow, 'attempts'>): Date {
    const schedule = this.services.config.commerce.pollScheduleMs;
    return new Date(Date.now() + schedule[Math.min(part.attempts, schedule.length - 1)]!);
  }

  record(part: ClaimedPart, outcome: PartOutcome): Promise<void> {
    return recordPart(this.services.db, part, outcome);
  }

  async renew(parts: ClaimedPart[]): Promise<void> {
    await this.services.db.raw(
      `UPDATE commerce_batch_parts SET locked_until = now() + make_interval(secs => ?)
       WHERE (batch_id, part) IN (SELECT * FROM unnest(?::text[], ?::int[])) AND status <> 'done'`,
      [this.services.config.commerce.leaseSeconds, parts.map((p) => p.batchId), parts.map((p) => p.part)],
    );
  }

  describe(part: ClaimedPart): Record<string, unknown> {
    return { batchId: part.batchId, part: part.part, status: part.status };
  }
}
