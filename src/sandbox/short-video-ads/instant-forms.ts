import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { TikTokEvent } from '../tiktok-webhook.js';

/** An advertiser's instant form (a lead-gen page), as `page/get` lists it. */
interface InstantForm {
  page_id: string;
  advertiserId: string;
  title: string;
  status: 'PUBLISHED' | 'EDITED' | 'ARCHIVED';
  locale: string;
  create_time: string;
  privacy_policy_url: string;
  fields: Array<{ field_type: string; field_name: string; label?: string; options?: string[] }>;
}

interface InstantLead {
  lead_id: string;
  page_id: string;
  advertiserId: string;
  ad_id: string | null;
  adgroup_id: string | null;
  campaign_id: string | null;
  /** Unix seconds. */
  create_time: number;
  field_data: Array<{ field_name: string; field_value: string }>;
  mock: boolean;
}

/** What the instant forms keep across a restart. */
export interface InstantFormsState {
  forms: Map<string, InstantForm>;
  leads: Map<string, InstantLead>;
  /** Advertisers whose lead access is off: their leads are announced, and reading them is refused. */
  refused: string[];
  nextId: bigint;
}

/** What the Business API's other routes lend the forms: its envelope, its token check, its signed webhooks. */
export interface BusinessApi {
  answer(ctx: RouterContext, code: number, message: string, data?: unknown): void;
  /** The token's advertisers, or null (refused: answered already). */
  advertisersOf(ctx: RouterContext): string[] | null;
  send(url: string, event: TikTokEvent): Promise<{ webhookStatus: number }>;
}

const API = '/short_video_ads/open_api/v1.3';

/**
 * Instant forms (lead-gen pages) of the advertisers: `page/get`, `page/lead/get`, the form's one mock lead
 * (`page/lead/mock/create|delete`), and the signed `lead.submitted` webhook when a person sends a form (to the
 * callback URL a control names, standing for the app's lead subscription). People's controls: a form made in
 * TikTok's tools, a person sends one, the advertiser's lead access off.
 */
export function mountInstantForms(router: Router, api: BusinessApi, restored: InstantFormsState | undefined): () => InstantFormsState {
  const kept: InstantFormsState = restored ?? { forms: new Map(), leads: new Map(), refused: [], nextId: 7100000000000000000n };
  const newId = () => String((kept.nextId += 1n));
  const advertiserOf = (ctx: RouterContext): string | null => {
    const reached = api.advertisersOf(ctx);
    if (!reached) return null;
    const q = { ...(ctx.query as Record<string, string>), ...((ctx.request.body ?? {}) as Record<string, string>) };
    const advertiserId = String(q.advertiser_id ?? '');
    if (!reached.includes(advertiserId)) {
      api.answer(ctx, 40001, 'No permission to operate the advertiser.');
      return null;
    }
    return advertiserId;
  };
  const announce = (lead: InstantLead, webhookUrl: string) =>
    api.send(webhookUrl, {
      event: 'lead.submitted',
      // The ids are int64s: written as bare numbers, as the platform writes them.
      content: `{"advertiser_id":${lead.advertiserId},"page_id":${lead.page_id},"lead_id":${lead.lead_id},"ad_id":${lead.ad_id ?? 'null'},"adgroup_id":${lead.adgroup_id ?? 'null'},"campaign_id":${lead.campaign_id ?? 'null'},"create_time":${lead.create_time}}`,
    });

  router.get(`${API}/page/get/`, (ctx) => {
    const advertiserId = advertiserOf(ctx);
    if (!advertiserId) return;
    const q = ctx.query as Record<string, string>;
    const ids = q.page_ids ? (JSON.parse(q.page_ids) as string[]).map(String) : null;
    const listed = [...kept.forms.values()]
      .filter(
        (form) => form.advertiserId === advertiserId && (!ids || ids.includes(form.page_id)) && (!q.status || form.status === q.status),
      )
      .reverse();
    const size = Math.min(Number(q.page_size ?? 10) || 10, 100);
    const page = Number(q.page ?? 1) || 1;
    api.answer(ctx, 0, 'OK', {
      list: listed.slice((page - 1) * size, page * size).map(({ advertiserId: _, ...form }) => form),
      page_info: { page, page_size: size, total_number: listed.length, total_page: Math.max(1, Math.ceil(listed.length / size)) },
    });
  });

  router.get(`${API}/page/lead/get/`, (ctx) => {
    const advertiserId = advertiserOf(ctx);
    if (!advertiserId) return;
    if (kept.refused.includes(advertiserId)) return api.answer(ctx, 40300, 'The advertiser has not granted lead access to the app.');
    const lead = kept.leads.get(String(ctx.query.lead_id));
    if (!lead || lead.advertiserId !== advertiserId) return api.answer(ctx, 40002, 'lead_id: no such lead.');
    const { advertiserId: _, mock: __, ...shown } = lead;
    api.answer(ctx, 0, 'OK', { lead: shown });
  });

  router.post(`${API}/page/lead/mock/create/`, (ctx) => {
    const advertiserId = advertiserOf(ctx);
    if (!advertiserId) return;
    const form = kept.forms.get(String((ctx.request.body as Record<string, unknown>).page_id));
    if (!form || form.advertiserId !== advertiserId) return api.answer(ctx, 40002, 'page_id: no such instant form.');
    if ([...kept.leads.values()].some((lead) => lead.page_id === form.page_id && lead.mock))
      return api.answer(ctx, 40002, 'The instant form has a test lead already; delete it first.');
    const lead = submit(form, { mock: true });
    api.answer(ctx, 0, 'OK', { lead_id: lead.lead_id });
  });

  router.post(`${API}/page/lead/mock/delete/`, (ctx) => {
    const advertiserId = advertiserOf(ctx);
    if (!advertiserId) return;
    const lead = kept.leads.get(String((ctx.request.body as Record<string, unknown>).lead_id));
    if (!lead?.mock || lead.advertiserId !== advertiserId) return api.answer(ctx, 40002, 'lead_id: no such test lead.');
    kept.leads.delete(lead.lead_id);
    api.answer(ctx, 0, 'OK');
  });

  function submit(form: InstantForm, input: { adId?: string; mock?: boolean; fields?: Record<string, string> }): InstantLead {
    const lead: InstantLead = {
      lead_id: newId(),
      page_id: form.page_id,
      advertiserId: form.advertiserId,
      ad_id: input.adId ?? null,
      adgroup_id: input.adId ? `${input.adId}1` : null,
      campaign_id: input.adId ? `${input.adId}2` : null,
      create_time: Math.floor(Date.now() / 1000),
      field_data: form.fields.map((field) => ({
        field_name: field.field_name,
        field_value: input.fields?.[field.field_name] ?? (input.mock ? `test ${field.field_name}` : `${field.field_name} answer`),
      })),
      mock: input.mock ?? false,
    };
    kept.leads.set(lead.lead_id, lead);
    return lead;
  }

  const people = '/_sandbox/short_video_ads';
  const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;

  /** A form made in TikTok's own tools for the advertiser. */
  router.post(`${people}/instant-forms`, (ctx) => {
    const input = body(ctx) as Partial<InstantForm> & { advertiserId?: string };
    const form: InstantForm = {
      page_id: newId(),
      advertiserId: String(input.advertiserId),
      title: input.title ?? 'Instant form',
      status: input.status ?? 'PUBLISHED',
      locale: input.locale ?? 'en_US',
      create_time: new Date().toISOString().slice(0, 19).replace('T', ' '),
      privacy_policy_url: input.privacy_policy_url ?? 'https://advertiser.example/privacy',
      fields: input.fields ?? [
        { field_type: 'NAME', field_name: 'name' },
        { field_type: 'EMAIL', field_name: 'email' },
      ],
    };
    kept.forms.set(form.page_id, form);
    ctx.status = 201;
    ctx.body = form;
  });

  /** A person sends the form (from an ad, `adId`): with `webhookUrl`, the signed `lead.submitted` goes there. */
  router.post(`${people}/instant-leads`, async (ctx) => {
    const input = body(ctx) as { formId?: string; adId?: string; fields?: Record<string, string>; webhookUrl?: string };
    const form = kept.forms.get(String(input.formId));
    if (!form) {
      ctx.status = 404;
      ctx.body = { error: 'no such instant form' };
      return;
    }
    const lead = submit(form, { ...(input.adId ? { adId: input.adId } : {}), ...(input.fields ? { fields: input.fields } : {}) });
    ctx.status = 201;
    ctx.body = { lead, ...(input.webhookUrl ? await announce(lead, input.webhookUrl) : {}) };
  });

  /** The advertiser's lead access for the app on or off: its leads are still announced, reading them is refused. */
  router.post(`${people}/lead-access`, (ctx) => {
    const input = body(ctx) as { advertiserId?: string; allowed?: boolean };
    const advertiserId = String(input.advertiserId);
    kept.refused = kept.refused.filter((id) => id !== advertiserId);
    if (input.allowed === false) kept.refused.push(advertiserId);
    ctx.body = { refused: kept.refused };
  });

  /** The mock lead the platform made is sent to the callback URL as its lead subscription would. */
  router.post(`${people}/instant-leads/announce`, async (ctx) => {
    const input = body(ctx) as { leadId?: string; webhookUrl?: string };
    const lead = kept.leads.get(String(input.leadId));
    if (!lead || !input.webhookUrl) {
      ctx.status = 404;
      ctx.body = { error: 'no such lead, or no webhookUrl' };
      return;
    }
    ctx.body = await announce(lead, input.webhookUrl);
  });

  return () => kept;
}
