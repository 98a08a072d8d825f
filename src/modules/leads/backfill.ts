import type { components } from '../../../generated/api.js';
import { ApiError } from '../../lib/errors.js';
import type { AccountId, AdAccountId } from '../../lib/ids.js';
import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings, claimInBatches, dueRowIds } from '../../lib/lease-worker.js';
import type { Leads, PlatformLeadForm } from '../../platforms/capabilities/leads.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { connectedAccountsOn } from '../accounts/api.js';
import type { Connection } from '../accounts/models.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import { connectionById } from '../accounts/read.js';
import { ownerItself, type Principal } from '../auth/principal.js';
import { withLeads } from './access.js';
import type { LeadBackfillRow, LeadRow } from './rows.js';
import { emitReceived, LEADS_CHANNEL, leadColumns, retrievedColumns } from './store.js';

type LeadBackfill = components['schemas']['LeadBackfill'];

/** The platforms keep leads 90 days: what a backfill reads. */
const WINDOW_MS = 90 * 24 * 3600 * 1000;
/** A connection's forms are walked at most this many pages deep (of 100). */
const MAX_PAGES = 50;
const POLL_MS = 2000;
/** A failed backfill is tried again after this long. */
const RETRY_SECONDS = 300;
/** The job that finds connections never backfilled (connected since it last ran). */
export const BACKFILL_NEW_JOB = 'leads.backfillNewConnections';

/** Every form of the connection, walking the platform's pages. */
async function allForms(leads: Leads, account: AdapterAccount): Promise<PlatformLeadForm[]> {
  const forms: PlatformLeadForm[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const listed = await leads.forms(account, { limit: 100, after, status: undefined });
    forms.push(...listed.forms);
    if (!listed.next) break;
    after = listed.next;
  }
  return forms;
}

/** Asks for a backfill of the connection (again): the worker reads it from `since`. */
async function requestFor(services: Services, row: Pick<Connection, 'id' | 'ownerId'>, since: Date): Promise<void> {
  const { db } = services;
  await db.transaction(async (trx) => {
    await trx('leadBackfills')
      .insert({
        accountId: row.id,
        ownerId: row.ownerId,
        since,
        requestedAt: trx.fn.now(),
        dueAt: trx.fn.now(),
        doneAt: null,
        lockedUntil: null,
        attempts: 0,
      })
      .onConflict('accountId')
      .merge();
    await trx.raw(`NOTIFY ${LEADS_CHANNEL}`);
  });
}

/** `POST …/leads/backfill`: the forms are listed now (so a refusal is answered), their leads read by the worker. */
export async function requestBackfill(services: Services, principal: Principal, id: string): Promise<LeadBackfill> {
  return withLeads(
    services,
    principal,
    id,
    async (leads, account, row) => {
      const forms = await allForms(leads, account);
      const since = new Date(Date.now() - WINDOW_MS);
      await requestFor(services, row, since);
      return { since: since.toISOString(), forms: forms.length };
    },
    'formLeads',
  );
}

/** Connections whose platform lists past leads and that were never backfilled: connected since the job last ran. */
export async function backfillNewConnections(services: Services): Promise<void> {
  const platforms = services.platforms
    .all()
    .filter((adapter) => adapter.leads?.formLeads)
    .map((adapter) => adapter.id);
  const connected = await connectedAccountsOn(services.db, platforms);
  if (connected.length === 0) return;
  const known = new Set(
    (
      await services
        .db('leadBackfills')
        .whereIn(
          'accountId',
          connected.map((row) => row.id),
        )
        .select('accountId')
    ).map((row: { accountId: string }) => row.accountId),
  );
  for (const row of connected.filter((one) => !known.has(one.id))) await requestFor(services, row, new Date(Date.now() - WINDOW_MS));
}

type Outcome = { kind: 'done' } | { kind: 'failed'; reason: string };

/**
 * Reads a connection's leads of the last 90 days, form by form, page by page: each one the store lacks is stored
 * read and emitted as `lead.received` in one transaction (a lead stored already is left as it is, so a backfill
 * run twice emits nothing twice); those announced and not read yet are then due again at once.
 */
export class LeadBackfillWork implements LeasedWork<LeadBackfillRow, Outcome> {
  readonly settings: LeaseWorkerSettings;

  constructor(private readonly services: Services) {
    const { leaseSeconds } = services.config.leads;
    this.settings = {
      name: 'socialgate-lead-backfills',
      channels: [LEADS_CHANNEL],
      concurrency: 2,
      pollMs: POLL_MS,
      loops: 1,
      leaseSeconds,
    };
  }

  turn(loop: ClaimLoop<LeadBackfillRow>): Promise<void> {
    return claimInBatches(loop, 2, POLL_MS, async (n) => {
      const { db } = this.services;
      const due = dueRowIds(
        db,
        'leadBackfills',
        { pending: (backfills) => backfills.whereNull('doneAt'), dueColumn: 'dueAt', orderBy: 'requestedAt', key: 'accountId' },
        n,
      );
      return (await db('leadBackfills')
        .whereIn('accountId', due)
        .update({ lockedUntil: db.raw('now() + make_interval(secs => ?)', [this.services.config.leads.leaseSeconds]) })
        .returning('*')) as LeadBackfillRow[];
    });
  }

  async process(backfill: LeadBackfillRow): Promise<Outcome> {
    const connection = await connectionById(this.services.db, backfill.accountId as AccountId | AdAccountId);
    if (!connection) return { kind: 'done' };
    try {
      await withConnectedAccount(this.services, ownerItself(backfill.ownerId), connection, 'leads', async (adapter, account) => {
        const { leads } = adapter;
        if (!leads.formLeads) return;
        for (const form of await allForms(leads, account)) await this.readForm(leads, account, connection, form, backfill.since);
      });
      await this.services
        .db('leads')
        .where({ accountId: connection.id })
        .whereNot({ retrievalStatus: 'retrieved' })
        .update({ nextAttemptAt: this.services.db.fn.now() });
      return { kind: 'done' };
    } catch (error) {
      if (error instanceof ApiError) return { kind: 'failed', reason: error.detail };
      throw error;
    }
  }

  private async readForm(leads: Leads, account: AdapterAccount, connection: Connection, form: PlatformLeadForm, since: Date) {
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const listed = await leads.formLeads!(account, form.id, since, after);
      await this.services.db.transaction(async (trx) => {
        const rows = listed.leads.map((lead) => ({ ...leadColumns(connection, lead), ...retrievedColumns(lead, form.name), attempts: 1 }));
        const added =
          rows.length === 0
            ? []
            : ((await trx('leads').insert(rows).onConflict(['accountId', 'platformLeadId']).ignore().returning('*')) as LeadRow[]);
        await emitReceived(trx, added);
      });
      if (!listed.next) return;
      after = listed.next;
    }
  }

  async record(backfill: LeadBackfillRow, outcome: Outcome): Promise<void> {
    const { db } = this.services;
    await db('leadBackfills')
      .where({ accountId: backfill.accountId })
      .update(
        outcome.kind === 'done'
          ? { doneAt: db.fn.now(), lockedUntil: null, lastError: null }
          : {
              attempts: backfill.attempts + 1,
              lastError: outcome.reason.slice(0, 1000),
              dueAt: db.raw('now() + make_interval(secs => ?)', [RETRY_SECONDS]),
              lockedUntil: null,
            },
      );
  }

  async renew(backfills: LeadBackfillRow[]): Promise<void> {
    await this.services
      .db('leadBackfills')
      .whereIn(
        'accountId',
        backfills.map((backfill) => backfill.accountId),
      )
      .whereNull('doneAt')
      .update({ lockedUntil: this.services.db.raw('now() + make_interval(secs => ?)', [this.services.config.leads.leaseSeconds]) });
  }

  describe(backfill: LeadBackfillRow): Record<string, unknown> {
    return { accountId: backfill.accountId };
  }
}
