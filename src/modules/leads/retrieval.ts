import { LRUCache } from 'lru-cache';
import { ApiError } from '../../lib/errors.js';
import type { AccountId, AdAccountId } from '../../lib/ids.js';
import {
  type ClaimLoop,
  type DueRows,
  type LeasedWork,
  type LeaseWorkerSettings,
  claimInBatches,
  dueRowIds,
} from '../../lib/lease-worker.js';
import type { PlatformLead } from '../../platforms/capabilities/leads.js';
import type { Services } from '../../services.js';
import { clearLastError } from '../accounts/accounts.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import { connectionById } from '../accounts/read.js';
import { ownerItself } from '../auth/principal.js';
import type { LeadRow } from './rows.js';
import { emitReceived, LEADS_CHANNEL, retrievedColumns } from './store.js';

const POLL_MS = 1000;
const CLAIM_BATCH = 50;
/** The platforms keep a lead 90 days: one not read by then never will be. */
const PLATFORM_KEEPS_MS = 90 * 24 * 3600 * 1000;

type Outcome = { kind: 'retrieved'; lead: PlatformLead; formName: string | null } | { kind: 'refused'; reason: string };

/** The leads still to read from the platform, as the partial index `leads_due` says. */
export const DUE_LEADS: DueRows = { pending: (leads) => leads.where('retrievalStatus', '<>', 'retrieved') };

/**
 * Reads announced leads from their platforms, draining `leads` as the AI worker drains its tasks: due leads are
 * claimed under a lease (SKIP LOCKED), each read once per turn, and the outcome recorded. A lead read is filled in
 * and `lead.received` emitted in one statement's transaction, only if it was not read before (a lead is emitted
 * once, whatever a lease run out or a restart repeats). A lead the platform refuses (its Leads Access Manager, a
 * permission, the connection needing a reconnection) is kept `unretrieved` with the platform's reason and tried
 * again on `retrySeconds`, for as long as the platform keeps it. A worker that dies stops renewing; its leads are
 * claimed again once their leases run out.
 */
export class LeadRetrievalWork implements LeasedWork<LeadRow, Outcome> {
  readonly settings: LeaseWorkerSettings;
  /** Form names by connection and form: a burst of leads of one form reads the form once. */
  private readonly formNames = new LRUCache<string, string>({ max: 1000, ttl: 10 * 60 * 1000 });

  constructor(private readonly services: Services) {
    const { concurrency, leaseSeconds } = services.config.leads;
    this.settings = { name: 'socialgate-leads', channels: [LEADS_CHANNEL], concurrency, pollMs: POLL_MS, loops: 1, leaseSeconds };
  }

  turn(loop: ClaimLoop<LeadRow>): Promise<void> {
    return claimInBatches(loop, CLAIM_BATCH, POLL_MS, (n) => this.claimDue(n));
  }

  private async claimDue(n: number): Promise<LeadRow[]> {
    if (n <= 0) return [];
    const { db } = this.services;
    const due = dueRowIds(db, 'leads', DUE_LEADS, n);
    return (await db('leads')
      .whereIn('id', due)
      .update({ lockedUntil: db.raw('now() + make_interval(secs => ?)', [this.services.config.leads.leaseSeconds]) })
      .returning('*')) as LeadRow[];
  }

  async process(row: LeadRow): Promise<Outcome> {
    const connection = await connectionById(this.services.db, row.accountId as AccountId | AdAccountId);
    if (!connection) return { kind: 'refused', reason: 'The connection the lead came to is gone.' };
    try {
      return await withConnectedAccount(this.services, ownerItself(row.ownerId), connection, 'leads', async (adapter, account) => {
        const lead = await adapter.leads.lead(account, row.platformLeadId, row.formId);
        const key = `${row.accountId} ${lead.formId}`;
        let formName = this.formNames.get(key) ?? null;
        if (formName === null) {
          formName = await adapter.leads.form(account, lead.formId).then(
            (form) => form.name,
            () => null,
          );
          if (formName !== null) this.formNames.set(key, formName);
        }
        return { kind: 'retrieved', lead, formName };
      });
    } catch (error) {
      if (error instanceof ApiError) return { kind: 'refused', reason: error.detail.slice(0, 1000) };
      throw error;
    }
  }

  async record(row: LeadRow, outcome: Outcome): Promise<void> {
    const { db, config } = this.services;
    if (outcome.kind === 'retrieved') {
      await db.transaction(async (trx) => {
        const read = (await trx('leads')
          .where({ id: row.id })
          .whereNot({ retrievalStatus: 'retrieved' })
          .update({ ...retrievedColumns(outcome.lead, outcome.formName), attempts: row.attempts + 1 })
          .returning('*')) as LeadRow[];
        await emitReceived(trx, read);
      });
      await clearLastError(db, row.accountId as AccountId | AdAccountId, 'lead_access_refused');
      return;
    }
    const schedule = config.leads.retrySeconds;
    const delay = schedule[Math.min(row.attempts, schedule.length - 1)]! * 1000;
    const next = Date.now() + delay;
    await db('leads')
      .where({ id: row.id })
      .whereNot({ retrievalStatus: 'retrieved' })
      .update({
        retrievalStatus: 'unretrieved',
        retrievalReason: outcome.reason,
        attempts: row.attempts + 1,
        nextAttemptAt: next - row.createdAt.getTime() < PLATFORM_KEEPS_MS ? new Date(next) : null,
        lockedUntil: null,
      });
  }

  async renew(rows: LeadRow[]): Promise<void> {
    await this.services.db.raw(
      `UPDATE leads SET locked_until = now() + make_interval(secs => ?) WHERE id = ANY(?) AND retrieval_status <> 'retrieved'`,
      [this.services.config.leads.leaseSeconds, rows.map((row) => row.id)],
    );
  }

  describe(row: LeadRow): Record<string, unknown> {
    return { leadId: row.id, platform: row.platform, platformLeadId: row.platformLeadId };
  }
}
