import type { components } from '../../../generated/api.js';
import { NotFoundError } from '../../lib/errors.js';
import { type Page, pageRequest, toPage } from '../../lib/pagination.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { leadsConnection, withLeads } from './access.js';
import type { LeadRow, LeadStateName, RetrievalStatus } from './rows.js';
import { presentLead } from './store.js';

type Lead = components['schemas']['Lead'];

export interface LeadFilters {
  limit?: number;
  cursor?: string;
  formId?: string;
  from?: string;
  to?: string;
  isTest?: boolean;
  state?: LeadStateName;
  retrieval?: RetrievalStatus;
}

/** The connection's stored leads, newest first (keyset on the id, a ULID of the lead's time). */
export async function listLeads(services: Services, principal: Principal, id: string, filters: LeadFilters): Promise<Page<Lead>> {
  const row = await leadsConnection(services, principal, id);
  const page = pageRequest(filters);
  const query = services
    .db('leads')
    .where({ accountId: row.id })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (filters.formId) query.where({ formId: filters.formId });
  if (filters.from) query.where('createdAt', '>=', new Date(filters.from));
  if (filters.to) query.where('createdAt', '<', new Date(filters.to));
  if (filters.isTest !== undefined) query.where({ isTest: filters.isTest });
  if (filters.state) query.where({ state: filters.state });
  if (filters.retrieval) query.where({ retrievalStatus: filters.retrieval });
  if (page.after) query.where('id', '<', page.after);
  return toPage((await query) as LeadRow[], page, presentLead);
}

/**
 * Forgets a lead, its state and its history. A platform's own test lead goes at the platform first (so the form
 * may have another); a failure there leaves the lead here too.
 */
export async function deleteLead(services: Services, principal: Principal, id: string, leadId: string): Promise<void> {
  const row = await leadsConnection(services, principal, id);
  const lead = (await services.db('leads').where({ accountId: row.id, id: leadId }).first()) as LeadRow | undefined;
  if (!lead) throw new NotFoundError('lead');
  if (lead.platformTest) {
    await withLeads(services, principal, id, (leads, account) => leads.deleteTestLead(account, lead.platformLeadId, lead.formId));
  }
  await services.db('leads').where({ id: lead.id }).delete();
}

/** Leads received longer ago than the retention period, forgotten (with their history); none when it is 0. */
export async function purgeLeads(services: Services): Promise<Record<string, number>> {
  const days = services.config.leads.retentionDays;
  if (days <= 0) return {};
  const leads = await services
    .db('leads')
    .where('receivedAt', '<', services.db.raw('now() - make_interval(days => ?)', [days]))
    .delete();
  return { leads };
}
