import type { RouterContext } from '@koa/router';
import {
  AUDIENCE_ERROR_CODE,
  AUDIENCE_SUBCODES,
  DELIVERY_READY,
  DELIVERY_TOO_SMALL,
  OPERATION_ERROR,
  OPERATION_NORMAL,
  OPERATION_POPULATING,
  TERMS_URL,
  USERS_BATCH,
} from '../../../platforms/social-network/audience-rules.js';
import { jsonParam } from '../marketing-rules.js';
import { defineSocialPart } from '../part.js';
import type { AdAccount } from '../state.js';

interface Audience {
  id: string;
  adAccountId: string;
  name: string;
  subtype: 'CUSTOM' | 'LOOKALIKE' | 'WEBSITE';
  description: string;
  customerFileSource: string | null;
  originId: string | null;
  lookalikeSpec: Record<string, unknown> | null;
  pixelId: string | null;
  rule: string | null;
  retentionDays: number | null;
  createdAt: number;
  updatedAt: number;
  /** People received (added less removed); the platform matches a share of them. */
  people: number;
  /** When matching ends by itself; null: it waits for the people's control (`audiences/:id/finish`). */
  readyAt: number | null;
  failed: boolean;
  /** Upload sessions: the last batch seen of each, and whether its last batch came. */
  sessions: Record<string, { seq: number; closed: boolean }>;
}

interface MarketingAudiences {
  audiences: Audience[];
  /** Ad accounts that have not accepted the custom audience terms. */
  termsPending: string[];
  /** How long an ad account's new audiences populate, in seconds (null: until finished by a person); unset, none. */
  populatingSeconds: Record<string, number | null>;
}

/** The share of a customer list's people the platform matches to its users. */
const MATCH_RATE = 0.7;
/** The fewest matched people a lookalike's source needs; fewer than the delivery minimum is "too small". */
const LOOKALIKE_SOURCE_MINIMUM = 100;
const DELIVERY_MINIMUM = 1000;
const COUNTRY_PEOPLE = 40_000_000;
const SHA256 = /^[0-9a-f]{64}$/;
const FIELDS = 'id,name,subtype';

const populating = (audience: Audience) =>
  !audience.failed && audience.readyAt !== 0 && (audience.readyAt === null || Date.now() < audience.readyAt);

function matched(audience: Audience, all: Audience[]): number {
  if (audience.subtype === 'CUSTOM') return Math.floor(audience.people * MATCH_RATE);
  if (audience.subtype === 'WEBSITE') return 5200;
  const countries = (
    (audience.lookalikeSpec?.location_spec as { geo_locations?: { countries?: string[] } } | undefined)?.geo_locations?.countries ?? ['US']
  ).length;
  const source = all.find((one) => one.id === audience.originId);
  return source ? Math.floor(Number(audience.lookalikeSpec?.ratio ?? 0.01) * COUNTRY_PEOPLE * countries) : 0;
}

/**
 * The Marketing API's custom audiences: `GET|POST /act_{id}/customaudiences`, `GET|POST|DELETE /{audience-id}` and
 * `POST /{audience-id}/users` (with `method=DELETE` to remove) in upload sessions. What it checks: the ad account's
 * custom audience terms (2650/1870090), a lookalike's source populated (1713014) and large enough (1713007), each
 * session's batches in order and at most 10 000 rows, every value a SHA-256 hex digest (others are counted invalid
 * with samples). Matching is simulated: 70 % of the people received, the size a range around it, "too small" under
 * 1 000. People's controls: the terms, how long audiences populate, finishing one, and what an ad account holds.
 */
export const marketingAudiencesPart = defineSocialPart<MarketingAudiences>({
  key: 'marketing_audiences',
  mount(router, { state, graph, base }, restored) {
    const kept: MarketingAudiences = restored ?? { audiences: [], termsPending: [], populatingSeconds: {} };
    const people = '/_sandbox/social_network';

    const refuse = (ctx: RouterContext, subcode: number, title: string, message: string) =>
      graph.fail(ctx, 400, AUDIENCE_ERROR_CODE, 'Custom audience error', { subcode, user: { title, message } });
    const invalid = (ctx: RouterContext, message: string) =>
      graph.fail(ctx, 400, 100, 'Invalid parameter', { user: { title: 'Invalid Parameter', message } });

    /** The ad account of the path, used with a person's token granted ads_management; else the refusal is written. */
    const adAccountOf = (ctx: RouterContext, id: string): AdAccount | null => {
      const token = graph.userToken(ctx);
      if (!token) return null;
      const account = state.adAccounts.get(id);
      if (!account || !state.users.get(token.userId)!.adAccountIds.includes(id)) graph.unknownObject(ctx, id);
      else if (!state.granted(token, 'ads_management')) graph.missingPermission(ctx, 'ads_management');
      else return account;
      return null;
    };
    /** The audience of the path, if it is one, with the refusal written when the caller may not use it. */
    const audienceOf = (ctx: RouterContext): Audience | null | 'not_mine' => {
      const audience = kept.audiences.find((one) => one.id === ctx.params.id);
      if (!audience) return 'not_mine';
      return adAccountOf(ctx, audience.adAccountId) ? audience : null;
    };
    const termsRefused = (ctx: RouterContext, adAccountId: string) => {
      if (!kept.termsPending.includes(adAccountId)) return false;
      refuse(
        ctx,
        AUDIENCE_SUBCODES.termsNotAccepted,
        'Custom Audience Terms Not Accepted',
        `You must accept the Custom Audience terms before creating or changing customer lists: ${TERMS_URL(adAccountId)}`,
      );
      return true;
    };

    const view = (audience: Audience): Record<string, unknown> => {
      const count = matched(audience, kept.audiences);
      const busy = populating(audience);
      const small = count < DELIVERY_MINIMUM;
      return {
        id: audience.id,
        account_id: audience.adAccountId.slice(4),
        name: audience.name,
        subtype: audience.subtype,
        description: audience.description,
        // -1: too small (or too early) to tell, as the Graph says it.
        approximate_count_lower_bound: busy || small ? -1 : Math.round(count * 0.95),
        approximate_count_upper_bound: busy || small ? -1 : Math.round(count * 1.12),
        customer_file_source: audience.customerFileSource ?? undefined,
        operation_status: audience.failed
          ? { code: OPERATION_ERROR, description: 'The audience could not be built.' }
          : busy
            ? { code: OPERATION_POPULATING, description: "We're finding people who are part of this audience." }
            : { code: OPERATION_NORMAL, description: 'Normal' },
        delivery_status: small
          ? { code: DELIVERY_TOO_SMALL, description: 'Audience too small' }
          : { code: DELIVERY_READY, description: 'Ready' },
        lookalike_spec: audience.lookalikeSpec
          ? { ...audience.lookalikeSpec, origin: [{ id: audience.originId, type: 'custom_audience' }] }
          : undefined,
        pixel_id: audience.pixelId ?? undefined,
        rule: audience.rule ?? undefined,
        retention_days: audience.retentionDays ?? undefined,
        time_created: Math.floor(audience.createdAt / 1000),
        time_updated: Math.floor(audience.updatedAt / 1000),
      };
    };

    router.get(`${base}/:adAccountId/customaudiences`, (ctx, next) => {
      if (!ctx.params.adAccountId!.startsWith('act_')) return next();
      const account = adAccountOf(ctx, ctx.params.adAccountId!);
      if (!account) return;
      const p = graph.params(ctx);
      const subtype = jsonParam<Array<{ field: string; value: string }>>(p.filtering)?.find((one) => one.field === 'subtype')?.value;
      const list = kept.audiences
        .filter((one) => one.adAccountId === account.id && (!subtype || one.subtype === subtype))
        .reverse()
        .map((one) => graph.pick(view(one), p.fields, FIELDS));
      ctx.body = graph.list(ctx, list, `${ctx.origin}${ctx.path}`);
    });

    router.post(`${base}/:adAccountId/customaudiences`, (ctx, next) => {
      if (!ctx.params.adAccountId!.startsWith('act_')) return next();
      const account = adAccountOf(ctx, ctx.params.adAccountId!);
      if (!account) return;
      const p = graph.params(ctx);
      if (!p.name) return invalid(ctx, 'name is required.');
      const subtype = (p.subtype ?? 'CUSTOM') as Audience['subtype'];
      if (!['CUSTOM', 'LOOKALIKE', 'WEBSITE'].includes(subtype)) return invalid(ctx, `subtype ${subtype} is not supported.`);
      if (subtype === 'CUSTOM' && termsRefused(ctx, account.id)) return;
      let originId: string | null = null;
      if (subtype === 'LOOKALIKE') {
        const origin = kept.audiences.find((one) => one.id === p.origin_audience_id && one.adAccountId === account.id);
        if (!origin) return invalid(ctx, `origin_audience_id ${p.origin_audience_id ?? ''} is not an audience of the ad account.`);
        if (populating(origin))
          return refuse(
            ctx,
            AUDIENCE_SUBCODES.sourceNotReady,
            'Source Audience Not Ready',
            'The source audience is still being populated. Try again once it is ready.',
          );
        const people = matched(origin, kept.audiences);
        if (people < LOOKALIKE_SOURCE_MINIMUM)
          return refuse(
            ctx,
            AUDIENCE_SUBCODES.sourceTooSmall,
            'Source Audience Too Small',
            `The source audience has ${people} matched people; a lookalike needs at least ${LOOKALIKE_SOURCE_MINIMUM} in one country.`,
          );
        originId = origin.id;
      }
      if (subtype === 'WEBSITE' && (!p.pixel_id || !jsonParam(p.rule)))
        return invalid(ctx, 'A website audience needs pixel_id and a rule.');
      const seconds = account.id in kept.populatingSeconds ? kept.populatingSeconds[account.id]! : 0;
      const now = Date.now();
      const audience: Audience = {
        id: state.newId(),
        adAccountId: account.id,
        name: p.name,
        subtype,
        description: p.description ?? '',
        customerFileSource: subtype === 'CUSTOM' ? (p.customer_file_source ?? 'USER_PROVIDED_ONLY') : null,
        originId,
        lookalikeSpec: subtype === 'LOOKALIKE' ? (jsonParam<Record<string, unknown>>(p.lookalike_spec) ?? {}) : null,
        pixelId: subtype === 'WEBSITE' ? p.pixel_id! : null,
        rule: subtype === 'WEBSITE' ? p.rule! : null,
        retentionDays: subtype === 'WEBSITE' ? Number(p.retention_days ?? 30) : null,
        createdAt: now,
        updatedAt: now,
        people: 0,
        readyAt: seconds === null ? null : seconds === 0 ? 0 : now + seconds * 1000,
        failed: false,
        sessions: {},
      };
      kept.audiences.push(audience);
      ctx.body = { id: audience.id };
    });

    router.get(`${base}/:id`, (ctx, next) => {
      const audience = audienceOf(ctx);
      if (audience === 'not_mine') return next();
      if (audience) ctx.body = graph.pick(view(audience), graph.params(ctx).fields, FIELDS);
    });

    router.post(`${base}/:id`, (ctx, next) => {
      const audience = audienceOf(ctx);
      if (audience === 'not_mine') return next();
      if (!audience) return;
      const p = graph.params(ctx);
      if (p.name !== undefined) audience.name = p.name;
      if (p.description !== undefined) audience.description = p.description;
      if (p.rule !== undefined) {
        if (audience.subtype !== 'WEBSITE') return invalid(ctx, 'rule can be changed on website audiences only.');
        audience.rule = p.rule;
        const seconds = jsonParam<{ inclusions?: { rules?: Array<{ retention_seconds?: number }> } }>(p.rule)?.inclusions?.rules?.[0]
          ?.retention_seconds;
        if (seconds) audience.retentionDays = Math.round(seconds / 86_400);
      }
      audience.updatedAt = Date.now();
      ctx.body = { success: true };
    });

    router.delete(`${base}/:id`, (ctx, next) => {
      const audience = audienceOf(ctx);
      if (audience === 'not_mine') return next();
      if (!audience) return;
      if (kept.audiences.some((one) => one.originId === audience.id))
        return invalid(ctx, 'The audience is the source of a lookalike audience: delete the lookalike first.');
      kept.audiences = kept.audiences.filter((one) => one !== audience);
      ctx.body = { success: true };
    });

    /** Adds (or, with `method=DELETE`, removes) a batch of a session: `payload={schema,data}`, `session={session_id,batch_seq,last_batch_flag}`. */
    router.post(`${base}/:id/users`, (ctx, next) => {
      const audience = audienceOf(ctx);
      if (audience === 'not_mine') return next();
      if (!audience) return;
      if (audience.subtype !== 'CUSTOM') return invalid(ctx, 'Users can be added to customer file custom audiences only.');
      if (termsRefused(ctx, audience.adAccountId)) return;
      const p = graph.params(ctx);
      const payload = jsonParam<{ schema?: unknown; data?: unknown }>(p.payload);
      const schema = Array.isArray(payload?.schema)
        ? (payload.schema as string[])
        : typeof payload?.schema === 'string'
          ? [payload.schema]
          : null;
      if (!schema || !Array.isArray(payload?.data)) return invalid(ctx, 'payload must be {"schema": [...], "data": [[...]]}.');
      if (payload.data.length > USERS_BATCH) return invalid(ctx, `A batch takes at most ${USERS_BATCH} rows.`);
      const session = jsonParam<{ session_id?: number; batch_seq?: number; last_batch_flag?: boolean }>(p.session);
      let sessionId = String(session?.session_id ?? '');
      if (session) {
        const seen = audience.sessions[sessionId] ?? { seq: 0, closed: false };
        if (seen.closed) return invalid(ctx, `The session ${sessionId} has ended (its last batch came).`);
        if (session.batch_seq !== seen.seq + 1)
          return invalid(ctx, `batch_seq ${session.batch_seq ?? ''} is out of order: the session expects ${seen.seq + 1}.`);
        audience.sessions[sessionId] = { seq: seen.seq + 1, closed: session.last_batch_flag === true };
      } else sessionId = state.newId();
      const samples: string[] = [];
      let bad = 0;
      for (const row of payload.data as unknown[]) {
        const values = (Array.isArray(row) ? row : [row]).map(String);
        const ok =
          values.length === schema.length && values.every((one) => one === '' || SHA256.test(one)) && values.some((one) => one !== '');
        if (!ok) {
          bad += 1;
          if (samples.length < 5) samples.push(values.join(','));
        }
      }
      const good = payload.data.length - bad;
      audience.people = Math.max(0, audience.people + (p.method === 'DELETE' ? -good : good));
      audience.updatedAt = Date.now();
      ctx.body = {
        audience_id: audience.id,
        session_id: sessionId,
        num_received: payload.data.length,
        num_invalid_entries: bad,
        invalid_entry_samples: Object.fromEntries(samples.map((one, i) => [String(i), one])),
      };
    });

    const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
    const noAdAccount = (ctx: RouterContext) => {
      ctx.status = 404;
      ctx.body = { error: 'no such ad account' };
    };

    /** Whether the ad account has accepted the custom audience terms (`accepted: false` withdraws them). */
    router.post(`${people}/audience-terms`, (ctx) => {
      const input = body(ctx) as { adAccountId?: string; accepted?: boolean };
      const id = String(input.adAccountId);
      if (!state.adAccounts.has(id)) return noAdAccount(ctx);
      kept.termsPending = kept.termsPending.filter((one) => one !== id);
      if (input.accepted === false) kept.termsPending.push(id);
      ctx.body = { adAccountId: id, accepted: input.accepted !== false };
    });

    /** How long the ad account's next audiences populate, in seconds; null: until a person finishes each. */
    router.post(`${people}/audience-populating`, (ctx) => {
      const input = body(ctx) as { adAccountId?: string; seconds?: number | null };
      if (!state.adAccounts.has(String(input.adAccountId))) return noAdAccount(ctx);
      kept.populatingSeconds[String(input.adAccountId)] = input.seconds ?? null;
      ctx.body = { adAccountId: input.adAccountId, seconds: input.seconds ?? null };
    });

    /** The platform finishes building an audience: ready, or in an error. */
    router.post(`${people}/audiences/:id/finish`, (ctx) => {
      const audience = kept.audiences.find((one) => one.id === ctx.params.id);
      if (!audience) {
        ctx.status = 404;
        ctx.body = { error: 'no such audience' };
        return;
      }
      audience.readyAt = 0;
      audience.failed = body(ctx).status === 'error';
      ctx.body = { id: audience.id, status: audience.failed ? 'error' : 'ready' };
    });

    /** What the ad account's audiences hold: their people received and sessions (never any value). */
    router.get(`${people}/audiences`, (ctx) => {
      const adAccountId = String(ctx.query.adAccountId ?? '');
      if (!state.adAccounts.has(adAccountId)) return noAdAccount(ctx);
      ctx.body = {
        audiences: kept.audiences
          .filter((one) => one.adAccountId === adAccountId)
          .map((one) => ({ id: one.id, name: one.name, subtype: one.subtype, people: one.people, sessions: one.sessions })),
      };
    });

    return { state: () => kept };
  },
});
