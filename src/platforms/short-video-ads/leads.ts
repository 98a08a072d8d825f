import {
  LeadAccessRefused,
  type LeadFormQuestion,
  LeadFormNotFoundAtPlatform,
  type Leads,
  type PlatformLead,
  type PlatformLeadForm,
} from '../capabilities/leads.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';
import type { BusinessApiClient } from './client.js';

/** An instant form as `page/get` lists it (`business_type: LEAD_GEN`); its questions under `fields`. [U] */
interface InstantForm {
  page_id: string;
  title?: string;
  status?: string;
  locale?: string;
  create_time?: string;
  privacy_policy_url?: string;
  fields?: Array<{ field_type?: string; field_name?: string; label?: string; options?: string[] }>;
}
/** A lead as `page/lead/get` answers it. [U] */
interface InstantLead {
  lead_id: string;
  page_id?: string;
  ad_id?: string;
  adgroup_id?: string;
  campaign_id?: string;
  create_time?: string | number;
  field_data?: Array<{ field_name?: string; field_value?: string | string[] }>;
}

type QuestionType = Exclude<LeadFormQuestion['type'], 'OTHER'>;
/** TikTok's kinds of question, in ours; any other passes through as `OTHER`. */
const TYPES: Record<string, QuestionType> = {
  EMAIL: 'EMAIL',
  NAME: 'FULL_NAME',
  FIRST_NAME: 'FIRST_NAME',
  LAST_NAME: 'LAST_NAME',
  PHONE_NUMBER: 'PHONE',
  GENDER: 'GENDER',
  CITY: 'CITY',
  PROVINCE: 'PROVINCE',
  COUNTRY: 'COUNTRY',
  ZIP_CODE: 'ZIP',
  COMPANY: 'COMPANY_NAME',
  JOB_TITLE: 'JOB_TITLE',
  CUSTOM_QUESTION: 'CUSTOM',
};
const STATUSES: Record<string, PlatformLeadForm['status']> = { PUBLISHED: 'active', EDITED: 'draft', ARCHIVED: 'archived' };
const PAGE_SIZE = 100;
/** TikTok's code for an advertiser whose lead access is off (the lead download permission). [U] */
const NO_LEAD_ACCESS = 40300;

function timeOf(value: string | number | undefined): Date {
  if (value === undefined) return new Date();
  return new Date(typeof value === 'number' || /^\d+$/.test(value) ? Number(value) * 1000 : value.replace(' ', 'T') + 'Z');
}

function presentForm(form: InstantForm): PlatformLeadForm {
  return {
    id: String(form.page_id),
    name: (form.title ?? String(form.page_id)).slice(0, 200),
    status: STATUSES[form.status ?? ''] ?? 'active',
    locale: /^[a-z]{2}_[A-Z]{2}$/.test(form.locale ?? '') ? form.locale! : 'en_US',
    questions: (form.fields ?? []).slice(0, 15).map((field) => {
      const platformType = (field.field_type ?? 'CUSTOM_QUESTION').slice(0, 64);
      const type = TYPES[platformType];
      return {
        type: type ?? 'OTHER',
        platformType,
        key: (field.field_name ?? platformType.toLowerCase()).slice(0, 64),
        label: type && type !== 'CUSTOM' ? null : (field.label?.slice(0, 120) ?? null),
        options: (field.options ?? []).slice(0, 20).map((value, i) => ({ key: `option_${i + 1}`, value })),
      };
    }),
    privacyPolicy: { url: form.privacy_policy_url ?? '', linkText: null },
    followUpActionUrl: null,
    thankYouPage: null,
    contextCard: null,
    leadsCount: 0,
    createdAt: timeOf(form.create_time).toISOString(),
  };
}

function presentLead(lead: InstantLead, formId: string): PlatformLead {
  const fields: Record<string, string[]> = {};
  for (const field of lead.field_data ?? []) {
    if (field.field_name) fields[field.field_name] = ([] as string[]).concat(field.field_value ?? []).map(String);
  }
  return {
    id: String(lead.lead_id),
    formId: lead.page_id ? String(lead.page_id) : formId,
    adId: lead.ad_id ? String(lead.ad_id) : null,
    adsetId: lead.adgroup_id ? String(lead.adgroup_id) : null,
    campaignId: lead.campaign_id ? String(lead.campaign_id) : null,
    sourcePlatform: 'tiktok',
    isOrganic: !lead.ad_id,
    fields,
    createdAt: timeOf(lead.create_time),
  };
}

/**
 * An advertiser's instant forms and their leads over the Business API (the ad account's token): `page/get`
 * (forms), `page/lead/get` (one lead, as its webhook announced it), `page/lead/mock/create|delete` (the form's
 * one test lead). Forms are made and archived in TikTok's own tools only, and past leads are exported by a task
 * as a file (`page/lead/task`), which no backfill here reads yet.
 */
export class ShortVideoAdsLeads implements Leads {
  readonly readScopes = [];

  constructor(private readonly client: BusinessApiClient) {}

  private async call<T>(account: AdapterAccount, path: string, query: Record<string, string>, body?: Record<string, unknown>): Promise<T> {
    const accessToken = account.credentials.accessToken;
    const url = `${path}?${new URLSearchParams({ advertiser_id: account.platformAccountId, ...query })}`;
    try {
      return body
        ? await this.client.call<T>(path, { method: 'POST', accessToken, body: { advertiser_id: account.platformAccountId, ...body } })
        : await this.client.call<T>(url, { accessToken });
    } catch (error) {
      if (error instanceof PlatformError && error.details.platformCode === NO_LEAD_ACCESS) throw new LeadAccessRefused(error.message);
      throw error;
    }
  }

  async forms(account: AdapterAccount, page: { limit: number; after: string | undefined; status: PlatformLeadForm['status'] | undefined }) {
    const number = Number(page.after ?? 1) || 1;
    const data = await this.call<{ list?: InstantForm[]; page_info?: { total_page?: number } }>(account, '/page/get/', {
      business_type: 'LEAD_GEN',
      page: String(number),
      page_size: String(Math.min(page.limit, PAGE_SIZE)),
      ...(page.status ? { status: page.status === 'active' ? 'PUBLISHED' : page.status === 'draft' ? 'EDITED' : 'ARCHIVED' } : {}),
    });
    const more = number < (data.page_info?.total_page ?? 1);
    return { forms: (data.list ?? []).map(presentForm), next: more ? String(number + 1) : null };
  }

  async form(account: AdapterAccount, formId: string): Promise<PlatformLeadForm> {
    const data = await this.call<{ list?: InstantForm[] }>(account, '/page/get/', {
      business_type: 'LEAD_GEN',
      page_ids: JSON.stringify([formId]),
    });
    const form = (data.list ?? []).find((one) => String(one.page_id) === formId);
    if (!form) throw new LeadFormNotFoundAtPlatform(`the advertiser has no instant form ${formId}`);
    return presentForm(form);
  }

  async lead(account: AdapterAccount, leadId: string, formId: string): Promise<PlatformLead> {
    const data = await this.call<{ lead?: InstantLead }>(account, '/page/lead/get/', { lead_id: leadId });
    if (!data.lead) throw new PlatformError('transient', `the platform answered no lead ${leadId}`);
    return presentLead(data.lead, formId);
  }

  async createTestLead(account: AdapterAccount, formId: string): Promise<string> {
    const data = await this.call<{ lead_id?: string | number }>(account, '/page/lead/mock/create/', {}, { page_id: formId });
    if (data.lead_id === undefined) throw new PlatformError('transient', 'the platform answered no test lead id');
    return String(data.lead_id);
  }

  async deleteTestLead(account: AdapterAccount, leadId: string): Promise<void> {
    await this.call(account, '/page/lead/mock/delete/', {}, { lead_id: leadId });
  }
}
