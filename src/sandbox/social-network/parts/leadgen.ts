import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { graphTime } from '../graph.js';
import { defineSocialPart, type SocialNetwork } from '../part.js';
import { deliver, type Delivery } from '../people.js';
import type { Token } from '../state.js';

/** A lead form as the page keeps it (the Graph's own field names). */
interface Form {
  id: string;
  pageId: string;
  name: string;
  status: 'ACTIVE' | 'ARCHIVED' | 'DRAFT';
  locale: string;
  questions: Array<{ type: string; key: string; label?: string; options?: Array<{ key: string; value: string }> }>;
  privacy_policy: { url: string; link_text?: string };
  follow_up_action_url?: string;
  thank_you_page?: Record<string, unknown>;
  context_card?: Record<string, unknown>;
  createdAt: number;
}

/** A lead: what the person sent, and where from. */
interface Lead {
  id: string;
  formId: string;
  pageId: string;
  fieldData: Array<{ name: string; values: string[] }>;
  adId: string | null;
  adsetId: string | null;
  campaignId: string | null;
  platform: string;
  createdAt: number;
  test: boolean;
}

/** What the lead forms keep across a restart. */
interface Kept {
  forms: Map<string, Form>;
  leads: Map<string, Lead>;
  /** Pages whose Leads Access Manager leaves out these apps (by app id). */
  refused: Map<string, string[]>;
}

const PREFILLED = new Set([
  'EMAIL', 'FULL_NAME', 'FIRST_NAME', 'LAST_NAME', 'PHONE', 'WORK_EMAIL', 'WORK_PHONE_NUMBER', 'COMPANY_NAME', 'JOB_TITLE',
  'STREET_ADDRESS', 'CITY', 'STATE', 'PROVINCE', 'ZIP', 'POST_CODE', 'COUNTRY', 'DOB', 'GENDER', 'MARITIAL_STATUS',
  'RELATIONSHIP_STATUS', 'MILITARY_STATUS', 'DATE_TIME', 'STORE_LOOKUP',
]); // prettier-ignore
const KEYS: Record<string, string> = { PHONE: 'phone_number', ZIP: 'zip_code', DOB: 'date_of_birth', MARITIAL_STATUS: 'marital_status' };
/** The platform drops leads after 90 days: older ones are neither listed nor read. */
const KEPT_MS = 90 * 24 * 3600 * 1000;

function json<T>(value: string | undefined): T | null {
  try {
    return value === undefined ? null : (JSON.parse(value) as T);
  } catch {
    return null;
  }
}

/**
 * Lead ads over the Graph API: a page's forms (`GET|POST /{page}/leadgen_forms`, `GET|POST /{form}`, with the
 * platform's validation), its leads (`GET /{lead}`, `GET /{form}/leads` filtered by `time_created`, 90 days
 * kept), the form's one test lead (`POST /{form}/test_leads`, `DELETE /{lead}`), and the signed `leadgen`
 * webhook to each app subscribed to the page's `leadgen` field. People's controls: a person submits a form; the
 * page's Leads Access Manager leaves an app out (the webhook still goes, reading the lead is refused); faults;
 * a form made in the platform's own tools (any question type).
 */
export const leadgenPart = defineSocialPart<Kept>({
  key: 'leadgen',
  mount(router: Router, { state, graph, base }: SocialNetwork, restored) {
    const forms = restored?.forms ?? new Map<string, Form>();
    const leads = restored?.leads ?? new Map<string, Lead>();
    const refused = restored?.refused ?? new Map<string, string[]>();
    const duplicates = new Map<string, number>();

    const formView = (form: Form) => ({
      id: form.id,
      name: form.name,
      status: form.status,
      locale: form.locale,
      questions: form.questions,
      privacy_policy: form.privacy_policy,
      privacy_policy_url: form.privacy_policy.url,
      follow_up_action_url: form.follow_up_action_url,
      thank_you_page: form.thank_you_page,
      context_card: form.context_card,
      leads_count: [...leads.values()].filter((lead) => lead.formId === form.id).length,
      created_time: graphTime(form.createdAt),
      page: { id: form.pageId },
    });
    const leadView = (lead: Lead) => ({
      id: lead.id,
      created_time: graphTime(lead.createdAt),
      form_id: lead.formId,
      ad_id: lead.adId ?? undefined,
      adset_id: lead.adsetId ?? undefined,
      campaign_id: lead.campaignId ?? undefined,
      is_organic: lead.adId === null,
      platform: lead.platform,
      field_data: lead.fieldData,
    });
    const pageToken = (ctx: RouterContext, pageId: string): Token | null => {
      const token = graph.authenticate(ctx);
      if (!token) return null;
      if (token.pageId !== pageId) {
        graph.unknownObject(ctx, ctx.params.id!);
        return null;
      }
      return token;
    };
    /** Reading a lead needs `leads_retrieval`, and the page's Leads Access Manager must not leave the app out. */
    const mayRead = (ctx: RouterContext, token: Token, pageId: string): boolean => {
      if (!state.granted(token, 'leads_retrieval')) {
        graph.missingPermission(ctx, 'leads_retrieval');
        return false;
      }
      if ((refused.get(pageId) ?? []).includes(token.appId)) {
        graph.fail(
          ctx,
          403,
          200,
          "(#200) The app has no access to the page's leads: a page admin must give it access in Leads Access Manager.",
        );
        return false;
      }
      return true;
    };
    const visible = (lead: Lead) => Date.now() - lead.createdAt < KEPT_MS;

    /** The page's `leadgen` webhook to each app subscribed to it (twice, when a duplicate is due). */
    const sendLeadgen = async (lead: Lead): Promise<Delivery[]> => {
      const payload = {
        object: 'page',
        entry: [
          {
            id: lead.pageId,
            time: Math.floor(Date.now() / 1000),
            changes: [
              {
                field: 'leadgen',
                value: {
                  leadgen_id: lead.id,
                  page_id: lead.pageId,
                  form_id: lead.formId,
                  created_time: Math.floor(lead.createdAt / 1000),
                  ...(lead.adId ? { ad_id: lead.adId, adgroup_id: lead.adsetId } : {}),
                },
              },
            ],
          },
        ],
      };
      const times = 1 + (duplicates.get(lead.pageId) ?? 0);
      duplicates.delete(lead.pageId);
      const deliveries: Delivery[] = [];
      for (let i = 0; i < times; i += 1) {
        for (const [appId, fields] of state.pages.get(lead.pageId)?.subscribedApps ?? []) {
          const app = state.apps.get(appId)!;
          const subscription = app.subscriptions.get('page');
          if (!fields.includes('leadgen') || !subscription?.fields.includes('leadgen')) continue;
          deliveries.push(await deliver(app, subscription.callbackUrl, payload));
        }
      }
      return deliveries;
    };
    const newLead = (form: Form, input: Partial<Lead> & { fieldData: Lead['fieldData'] }): Lead => {
      const lead: Lead = {
        id: state.newId(),
        formId: form.id,
        pageId: form.pageId,
        adId: null,
        adsetId: null,
        campaignId: null,
        platform: 'fb',
        createdAt: Date.now(),
        test: false,
        ...input,
      };
      leads.set(lead.id, lead);
      return lead;
    };

    /** The platform's checks of a new form: what it refuses, in its words, or null. */
    const formProblem = (pageId: string, p: Record<string, string>): string | null => {
      if (!p.name) return '(#100) The parameter name is required';
      if ([...forms.values()].some((form) => form.pageId === pageId && form.name === p.name))
        return '(#100) A form with this name already exists on the page. Use a unique name.';
      const policy = json<{ url?: string }>(p.privacy_policy);
      if (!policy?.url) return '(#100) privacy_policy: a privacy policy url is required';
      const questions = json<Form['questions']>(p.questions);
      if (!Array.isArray(questions) || questions.length === 0) return '(#100) questions: at least one question is required';
      for (const question of questions) {
        if (question.type === 'CUSTOM' ? !question.key || !question.label : !PREFILLED.has(question.type))
          return `(#100) questions: invalid question ${JSON.stringify(question)}`;
      }
      return null;
    };

    router.get(`${base}/:id/leadgen_forms`, (ctx) => {
      const token = pageToken(ctx, ctx.params.id!);
      if (!token) return;
      if (!state.granted(token, 'pages_manage_ads')) return graph.missingPermission(ctx, 'pages_manage_ads');
      const status = json<Array<{ value?: string }>>(graph.params(ctx).filtering)?.[0]?.value;
      const listed = [...forms.values()].filter((form) => form.pageId === token.pageId && (!status || form.status === status)).reverse();
      ctx.body = graph.list(ctx, listed.map(formView), `${ctx.origin}${ctx.path}`);
    });

    router.post(`${base}/:id/leadgen_forms`, (ctx) => {
      const token = pageToken(ctx, ctx.params.id!);
      if (!token) return;
      if (!state.granted(token, 'pages_manage_ads')) return graph.missingPermission(ctx, 'pages_manage_ads');
      const p = graph.params(ctx);
      const problem = formProblem(token.pageId!, p);
      if (problem) return graph.fail(ctx, 400, 100, problem);
      const questions = json<Form['questions']>(p.questions)!.map((q) => ({ ...q, key: q.key ?? KEYS[q.type] ?? q.type.toLowerCase() }));
      const form: Form = {
        id: state.newId(),
        pageId: token.pageId!,
        name: p.name!,
        status: 'ACTIVE',
        locale: p.locale ?? 'en_US',
        questions,
        privacy_policy: json(p.privacy_policy)!,
        ...(p.follow_up_action_url ? { follow_up_action_url: p.follow_up_action_url } : {}),
        ...(p.thank_you_page ? { thank_you_page: json(p.thank_you_page)! } : {}),
        ...(p.context_card ? { context_card: json(p.context_card)! } : {}),
        createdAt: Date.now(),
      };
      forms.set(form.id, form);
      ctx.body = { id: form.id };
    });

    router.get(`${base}/:id/leads`, (ctx, next) => {
      const form = forms.get(ctx.params.id!);
      if (!form) return next();
      const token = pageToken(ctx, form.pageId);
      if (!token || !mayRead(ctx, token, form.pageId)) return;
      const since = Number(json<Array<{ value?: number }>>(graph.params(ctx).filtering)?.[0]?.value ?? 0) * 1000;
      const listed = [...leads.values()].filter((lead) => lead.formId === form.id && visible(lead) && lead.createdAt > since).reverse();
      ctx.body = graph.list(ctx, listed.map(leadView), `${ctx.origin}${ctx.path}`);
    });

    router.post(`${base}/:id/test_leads`, async (ctx, next) => {
      const form = forms.get(ctx.params.id!);
      if (!form) return next();
      const token = pageToken(ctx, form.pageId);
      if (!token) return;
      if (!state.granted(token, 'pages_manage_ads')) return graph.missingPermission(ctx, 'pages_manage_ads');
      if ([...leads.values()].some((lead) => lead.formId === form.id && lead.test))
        return graph.fail(ctx, 400, 100, '(#100) A test lead already exists for this form. Delete it to create another.');
      const fieldData = json<Lead['fieldData']>(graph.params(ctx).field_data) ?? [];
      const lead = newLead(form, { fieldData, test: true });
      setImmediate(() => void sendLeadgen(lead).catch(() => {}));
      ctx.body = { id: lead.id };
    });

    router.get(`${base}/:id`, (ctx, next) => {
      const form = forms.get(ctx.params.id!);
      const lead = leads.get(ctx.params.id!);
      if (!form && !lead) return next();
      const token = pageToken(ctx, (form ?? lead)!.pageId);
      if (!token) return;
      if (form) return void (ctx.body = graph.pick(formView(form), graph.params(ctx).fields, 'id,name,status'));
      if (!mayRead(ctx, token, lead!.pageId)) return;
      if (!visible(lead!)) return graph.unknownObject(ctx, lead!.id);
      ctx.body = graph.pick(leadView(lead!), graph.params(ctx).fields, 'id,created_time,field_data');
    });

    /** A form archived or brought back. */
    router.post(`${base}/:id`, (ctx, next) => {
      const form = forms.get(ctx.params.id!);
      if (!form) return next();
      const token = pageToken(ctx, form.pageId);
      if (!token) return;
      const status = graph.params(ctx).status;
      if (status !== 'ARCHIVED' && status !== 'ACTIVE') return graph.fail(ctx, 400, 100, '(#100) status must be one of ACTIVE, ARCHIVED');
      form.status = status;
      ctx.body = { success: true };
    });

    /** Only a test lead may be deleted. */
    router.delete(`${base}/:id`, (ctx, next) => {
      const lead = leads.get(ctx.params.id!);
      if (!lead) return next();
      const token = pageToken(ctx, lead.pageId);
      if (!token) return;
      if (!lead.test) return graph.fail(ctx, 400, 100, '(#100) Only test leads can be deleted.');
      leads.delete(lead.id);
      ctx.body = { success: true };
    });

    const people = '/_sandbox/social_network';
    const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
    const refuse = (ctx: RouterContext, status: number, error: string) => {
      ctx.status = status;
      ctx.body = { error };
    };

    /** A form made in the platform's own tools: any question types, any status. */
    router.post(`${people}/lead-forms`, (ctx) => {
      const input = body(ctx) as Partial<Form> & { pageId?: string };
      if (!state.pages.has(String(input.pageId))) return refuse(ctx, 404, 'no such page');
      const form: Form = {
        id: state.newId(),
        pageId: String(input.pageId),
        name: input.name ?? `Form ${forms.size + 1}`,
        status: input.status ?? 'ACTIVE',
        locale: input.locale ?? 'en_US',
        questions: input.questions ?? [{ type: 'EMAIL', key: 'email' }],
        privacy_policy: input.privacy_policy ?? { url: 'https://page.example/privacy' },
        createdAt: Date.now(),
      };
      forms.set(form.id, form);
      ctx.status = 201;
      ctx.body = formView(form);
    });

    /**
     * A person sends a form (from an ad, `adId`, or on the page), with these answers (made up from the questions
     * when none are given), `daysAgo` back in time: the signed `leadgen` webhook goes out.
     */
    router.post(`${people}/leads`, async (ctx) => {
      const input = body(ctx) as { formId?: string; fields?: Record<string, string[]>; adId?: string; platform?: string; daysAgo?: number };
      const form = forms.get(String(input.formId));
      if (!form) return refuse(ctx, 404, 'no such form');
      const fields = input.fields ?? Object.fromEntries(form.questions.map((q) => [q.key, [q.options?.[0]?.key ?? `${q.key} answer`]]));
      const lead = newLead(form, {
        fieldData: Object.entries(fields).map(([name, values]) => ({ name, values })),
        adId: input.adId ?? null,
        adsetId: input.adId ? `${input.adId}1` : null,
        campaignId: input.adId ? `${input.adId}2` : null,
        platform: input.platform ?? 'fb',
        createdAt: Date.now() - (input.daysAgo ?? 0) * 24 * 3600 * 1000,
      });
      const deliveries = input.daysAgo ? [] : await sendLeadgen(lead);
      ctx.status = 201;
      ctx.body = { lead: leadView(lead), deliveries };
    });

    /** The page's Leads Access Manager gives the app access, or leaves it out (`allowed: false`). */
    router.post(`${people}/lead-access`, (ctx) => {
      const input = body(ctx) as { pageId?: string; appId?: string; allowed?: boolean };
      const pageId = String(input.pageId);
      if (!state.pages.has(pageId)) return refuse(ctx, 404, 'no such page');
      const appId = input.appId ?? [...state.apps.keys()][0]!;
      const others = (refused.get(pageId) ?? []).filter((id) => id !== appId);
      refused.set(pageId, input.allowed === false ? [...others, appId] : others);
      ctx.body = { pageId, refused: refused.get(pageId) };
    });

    /** The page's next leads' webhooks are each sent `times` more times. */
    router.post(`${people}/lead-duplicates`, (ctx) => {
      const input = body(ctx) as { pageId?: string; times?: number };
      duplicates.set(String(input.pageId), input.times ?? 1);
      ctx.body = { duplicates: input.times ?? 1 };
    });

    /** The page's forms and leads, as the platform holds them. */
    router.get(`${people}/lead-forms`, (ctx) => {
      const pageId = String(ctx.query.pageId);
      const own = [...forms.values()].filter((form) => form.pageId === pageId);
      ctx.body = {
        forms: own.map(formView),
        leads: [...leads.values()].filter((lead) => lead.pageId === pageId).map((lead) => ({ ...leadView(lead), test: lead.test })),
      };
    });

    return { state: () => ({ forms, leads, refused }) };
  },
});
