import type { Knex } from 'knex';
import { ulid } from 'ulid';
import type { components } from '../../../generated/api.js';
import type { PlatformLead } from '../../platforms/capabilities/leads.js';
import { emitEvents, type NewEvent } from '../events/emit.js';
import type { LeadRow } from './rows.js';

type Lead = components['schemas']['Lead'];

/** The retrieval worker's NOTIFY channel: a lead announced (or a backfill asked for) wakes it at once. */
export const LEADS_CHANNEL = 'socialgate_leads';

/** Whose a stored lead is: the connection it came to. */
export interface LeadOwner {
  id: string;
  ownerId: string;
  profileId: string;
  platform: string;
}

/** A lead's row id: a ULID of its own time (`lead_`), so the keyset list by id is newest first whatever the arrival order. */
export function leadRowId(createdAt: Date): string {
  return `lead_${ulid(createdAt.getTime()).toLowerCase()}`;
}

/** A new lead's columns: whose, and the ids a webhook (or the platform's answer) names. */
export function leadColumns(connection: LeadOwner, lead: Omit<PlatformLead, 'fields' | 'sourcePlatform' | 'isOrganic'>) {
  return {
    id: leadRowId(lead.createdAt),
    ownerId: connection.ownerId,
    profileId: connection.profileId,
    accountId: connection.id,
    platform: connection.platform,
    platformLeadId: lead.id,
    formId: lead.formId,
    adId: lead.adId,
    adsetId: lead.adsetId,
    campaignId: lead.campaignId,
    isOrganic: !lead.adId,
    createdAt: lead.createdAt,
    stateUpdatedAt: lead.createdAt,
  };
}

/** What reading a lead from its platform adds to its row. */
export function retrievedColumns(lead: PlatformLead, formName: string | null) {
  return {
    fields: JSON.stringify(lead.fields),
    formName,
    adId: lead.adId,
    adsetId: lead.adsetId,
    campaignId: lead.campaignId,
    sourcePlatform: lead.sourcePlatform,
    isOrganic: lead.isOrganic,
    createdAt: lead.createdAt,
    retrievalStatus: 'retrieved',
    retrievalReason: null,
    nextAttemptAt: null,
    lockedUntil: null,
  };
}

/**
 * Leads announced by a platform (a webhook, a platform test lead): stored at once as `pending`, due now, so the
 * worker reads them; one already known stays as it is (platforms announce twice). Answers the rows it added.
 */
export async function announceLeads(trx: Knex | Knex.Transaction, rows: Array<Record<string, unknown>>): Promise<LeadRow[]> {
  if (rows.length === 0) return [];
  const added = (await trx('leads')
    .insert(rows.map((row) => ({ ...row, retrievalStatus: 'pending', nextAttemptAt: trx.fn.now() })))
    .onConflict(['accountId', 'platformLeadId'])
    .ignore()
    .returning('*')) as LeadRow[];
  if (added.length > 0) await trx.raw(`NOTIFY ${LEADS_CHANNEL}`);
  return added;
}

/** `lead.received` for each of these leads, read: in the caller's transaction, so each is emitted with its answers, once. */
export async function emitReceived(trx: Knex | Knex.Transaction, rows: LeadRow[]): Promise<void> {
  await emitEvents(
    trx,
    rows.map((row): NewEvent<'lead.received'> => ({
      ownerId: row.ownerId,
      profileId: row.profileId,
      name: 'lead.received',
      data: {
        leadId: row.id,
        platformLeadId: row.platformLeadId,
        accountId: row.accountId,
        platform: row.platform as Lead['platform'],
        formId: row.formId,
        adId: row.adId,
        adsetId: row.adsetId,
        campaignId: row.campaignId,
        fields: row.fields,
        isOrganic: row.isOrganic,
        isTest: row.isTest,
        createdAt: row.createdAt.toISOString(),
      },
    })),
  );
}

export function presentLead(row: LeadRow): Lead {
  return {
    id: row.id,
    platformLeadId: row.platformLeadId,
    accountId: row.accountId,
    profileId: row.profileId,
    platform: row.platform as Lead['platform'],
    formId: row.formId,
    formName: row.formName,
    adId: row.adId,
    adsetId: row.adsetId,
    campaignId: row.campaignId,
    sourcePlatform: row.sourcePlatform,
    fields: row.fields,
    isOrganic: row.isOrganic,
    isTest: row.isTest,
    state: row.state,
    retrieval: {
      status: row.retrievalStatus,
      reason: row.retrievalReason,
      attempts: row.attempts,
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    },
    createdAt: row.createdAt.toISOString(),
  };
}
