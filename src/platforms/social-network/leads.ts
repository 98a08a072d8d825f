import {
  LeadAccessRefused,
  type LeadFormCreate,
  LeadFormNotFoundAtPlatform,
  type Leads,
  type PlatformLead,
  type PlatformLeadForm,
} from '../capabilities/leads.js';
import type { PlatformError } from '../errors.js';
import { classifyMetaError, type GraphErrorBody, type GraphList, nextCursorOf } from '../meta/graph.js';
import type { AdapterAccount } from '../types.js';
import type { SocialNetworkClient } from './client.js';
import { FORM_FIELDS, type GraphLeadForm, graphFormParams, presentForm } from './lead-forms.js';

/** A lead as the Graph answers `/{lead-id}` and `/{form-id}/leads`. */
interface GraphLead {
  id: string;
  created_time?: string;
  form_id?: string;
  ad_id?: string;
  adset_id?: string;
  campaign_id?: string;
  is_organic?: boolean;
  platform?: string;
  field_data?: Array<{ name?: string; values?: string[] }>;
}

const LEAD_FIELDS = 'id,created_time,form_id,ad_id,adset_id,campaign_id,is_organic,platform,field_data';
/** Where the person saw the form, as the Graph abbreviates it. */
const SOURCES: Record<string, string> = { fb: 'facebook', ig: 'instagram', msgr: 'messenger', an: 'audience_network', wa: 'whatsapp' };
const PAGE_SIZE = 100;

/**
 * The Graph's refusals on lead forms and leads: an object it does not show (100, subcode 33) is no such form; a
 * refusal that names the page's Leads Access Manager is the page leaving the app out (a page admin fixes it, not
 * a reconnection), whatever its code; the rest by Meta's rules (a missing `leads_retrieval` is a reconnection).
 */
function classifyLeadError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = classifyMetaError(status, body, headers);
  const graph = (body as GraphErrorBody | undefined)?.error;
  if (/leads? access/i.test(graph?.message ?? '')) return new LeadAccessRefused(error.message);
  if (graph?.code === 100 && graph.error_subcode === 33) return new LeadFormNotFoundAtPlatform(error.message);
  return error;
}

function presentLead(lead: GraphLead, formId: string): PlatformLead {
  const fields: Record<string, string[]> = {};
  for (const field of lead.field_data ?? []) if (field.name) fields[field.name] = (field.values ?? []).map(String);
  return {
    id: lead.id,
    formId: lead.form_id ?? formId,
    adId: lead.ad_id ?? null,
    adsetId: lead.adset_id ?? null,
    campaignId: lead.campaign_id ?? null,
    sourcePlatform: lead.platform ? (SOURCES[lead.platform] ?? lead.platform) : null,
    isOrganic: lead.is_organic ?? !lead.ad_id,
    fields,
    createdAt: new Date(lead.created_time ?? Date.now()),
  };
}

/**
 * A page's lead forms and leads over the Graph API with the page's token: `/{page-id}/leadgen_forms` (list,
 * create), `/{form-id}` (read, archive), `/{lead-id}`, `/{form-id}/leads` (filtered by creation time) and
 * `/{form-id}/test_leads`.
 */
export class SocialNetworkLeads implements Leads {
  readonly readScopes = ['leads_retrieval'];

  constructor(private readonly client: SocialNetworkClient) {}

  private call<T>(account: AdapterAccount, method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string> = {}) {
    const token = account.credentials.accessToken;
    return this.client.call<T>(method, path, method === 'POST' ? { token, form: params } : { token, query: params }, classifyLeadError);
  }

  async forms(account: AdapterAccount, page: { limit: number; after: string | undefined; status: PlatformLeadForm['status'] | undefined }) {
    const listed = await this.call<GraphList<GraphLeadForm>>(account, 'GET', `${account.platformAccountId}/leadgen_forms`, {
      fields: FORM_FIELDS,
      limit: String(page.limit),
      ...(page.after ? { after: page.after } : {}),
      ...(page.status ? { filtering: JSON.stringify([{ field: 'status', operator: 'EQUAL', value: page.status.toUpperCase() }]) } : {}),
    });
    return { forms: listed.data.map(presentForm), next: nextCursorOf(listed) };
  }

  /** A form of the account's page: another page's form is none of its own. */
  async form(account: AdapterAccount, formId: string): Promise<PlatformLeadForm> {
    const form = await this.call<GraphLeadForm & { page?: { id?: string } }>(account, 'GET', formId, { fields: `${FORM_FIELDS},page` });
    if (form.page?.id !== undefined && form.page.id !== account.platformAccountId)
      throw new LeadFormNotFoundAtPlatform(`${formId} is not a form of the page`);
    return presentForm(form);
  }

  async lead(account: AdapterAccount, leadId: string, formId: string): Promise<PlatformLead> {
    return presentLead(await this.call<GraphLead>(account, 'GET', leadId, { fields: LEAD_FIELDS }), formId);
  }

  async formLeads(account: AdapterAccount, formId: string, since: Date, after: string | undefined) {
    const listed = await this.call<GraphList<GraphLead>>(account, 'GET', `${formId}/leads`, {
      fields: LEAD_FIELDS,
      limit: String(PAGE_SIZE),
      filtering: JSON.stringify([{ field: 'time_created', operator: 'GREATER_THAN', value: Math.floor(since.getTime() / 1000) }]),
      ...(after ? { after } : {}),
    });
    return { leads: listed.data.map((lead) => presentLead(lead, formId)), next: nextCursorOf(listed) };
  }

  async createTestLead(account: AdapterAccount, formId: string, fields: Record<string, string[]>): Promise<string> {
    const fieldData = Object.entries(fields).map(([name, values]) => ({ name, values }));
    return (await this.call<{ id: string }>(account, 'POST', `${formId}/test_leads`, { field_data: JSON.stringify(fieldData) })).id;
  }

  async deleteTestLead(account: AdapterAccount, leadId: string): Promise<void> {
    await this.call(account, 'DELETE', leadId);
  }

  async createForm(account: AdapterAccount, form: LeadFormCreate): Promise<PlatformLeadForm> {
    const made = await this.call<{ id: string }>(account, 'POST', `${account.platformAccountId}/leadgen_forms`, graphFormParams(form));
    return this.form(account, made.id);
  }

  async setFormStatus(account: AdapterAccount, formId: string, status: 'active' | 'archived'): Promise<PlatformLeadForm> {
    await this.form(account, formId);
    await this.call(account, 'POST', formId, { status: status.toUpperCase() });
    return this.form(account, formId);
  }
}
