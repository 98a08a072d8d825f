import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { MountedSandbox, StoredState } from '../sandbox-platform.js';
import { type AudiencesState, mountAudiences } from './audience-routes.js';
import { mountCampaignTree } from './campaign-routes.js';
import type { CampaignTreeState } from './campaign-tree.js';
import { type InstantFormsState, mountInstantForms } from './instant-forms.js';
import { sendTikTokWebhook, type TikTokEvent } from '../tiktok-webhook.js';
import type { Signing } from '../timestamped-signature.js';
import { DEMO_ADVERTISERS, SANDBOX_ADS_APP } from './demo.js';
import { mountReports, type ReportsState } from './report-routes.js';
import { mountIdentities } from './identity-routes.js';
import { mountSpark, type SparkState } from './spark-routes.js';
import { mountPixels, type PixelsState } from './pixel-routes.js';
import { mountTargetingTools } from './targeting-routes.js';

/**
 * The Business API v1.3 as our adapter uses it: the advertiser's consent page (`portal/auth` → `auth_code`), the
 * JSON token endpoint and advertiser info (`Access-Token` header), every answer HTTP 200 with the envelope
 * `{code, message, request_id, data}` where a non-zero code is the failure; and its webhooks, signed with the
 * app's secret (`TikTok-Signature`), to the callback URL a control names.
 */
type Advertiser = (typeof DEMO_ADVERTISERS)[number];
interface Token {
  advertiserIds: string[];
  revoked: boolean;
}

interface Code {
  advertiserIds: string[];
  redirectUri: string;
  used: boolean;
  expiresAt: number;
}

/** What the Business API keeps across a restart: its advertisers, codes and tokens, and the next advertiser id. */
interface ShortVideoAdsState {
  advertisers: Map<string, Advertiser>;
  codes: Map<string, Code>;
  tokens: Map<string, Token>;
  nextId: bigint;
  tree?: CampaignTreeState;
  instantForms?: InstantFormsState;
  reports?: ReportsState;
  audiences?: AudiencesState;
  spark?: SparkState;
  pixels?: PixelsState;
}

const requestId = () => `2026${randomBytes(10).toString('hex').toUpperCase()}`;

export function mountShortVideoAds(router: Router, _sandboxUrl: string, stored: StoredState): MountedSandbox {
  const restored = stored.restored as ShortVideoAdsState | undefined;
  const advertisers = restored?.advertisers ?? new Map<string, Advertiser>(DEMO_ADVERTISERS.map((a) => [a.advertiser_id, { ...a }]));
  const codes = restored?.codes ?? new Map<string, Code>();
  const tokens = restored?.tokens ?? new Map<string, Token>();
  let nextId = restored?.nextId ?? 7000000000000001000n;

  /** A webhook as the platform signs it: the body names the developer app by its id. */
  const send = (url: string, event: TikTokEvent, signing?: Signing) =>
    sendTikTokWebhook(url, { clientKey: SANDBOX_ADS_APP.appId, secret: SANDBOX_ADS_APP.secret }, event, signing);
  const answer = (ctx: RouterContext, code: number, message: string, data: unknown = {}) => {
    ctx.status = 200;
    ctx.body = { code, message, request_id: requestId(), data };
  };
  const authorised = (ctx: RouterContext): Token | null => {
    const token = tokens.get(ctx.get('Access-Token'));
    if (!token || token.revoked) {
      answer(ctx, 40105, 'The access token is invalid or has been revoked.');
      return null;
    }
    return token;
  };

  /** The signed-in advertiser's consent page; the hidden `advertiser_ids` are those they tick (all by default). */
  router.get('/short_video_ads/portal/auth', (ctx) => {
    const q = ctx.query as Record<string, string>;
    if (q.app_id !== SANDBOX_ADS_APP.appId || !q.redirect_uri) {
      ctx.status = 400;
      ctx.body = 'Invalid app_id or redirect_uri';
      return;
    }
    const fields = { ...q, advertiser_ids: [...advertisers.keys()].join(',') };
    const hidden = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${String(v).replace(/"/g, '&quot;')}">`)
      .join('');
    ctx.type = 'html';
    ctx.body = `<!doctype html><title>Authorize - Sandbox Business</title><h1>Sandbox app requests access to your ad accounts</h1>
<form method="post" action="/short_video_ads/portal/consent">${hidden}<button name="decision" value="approve">Confirm</button><button name="decision" value="deny">Cancel</button></form>`;
  });

  router.post('/short_video_ads/portal/consent', (ctx) => {
    const form = ctx.request.body as Record<string, string>;
    const target = new URL(form.redirect_uri!);
    if (form.decision !== 'approve') {
      target.searchParams.set('error', 'access_denied');
    } else {
      const code = randomBytes(20).toString('hex');
      const advertiserIds = (form.advertiser_ids ?? '').split(',').filter((id) => advertisers.has(id));
      codes.set(code, { advertiserIds, redirectUri: form.redirect_uri!, used: false, expiresAt: Date.now() + 10 * 60 * 1000 });
      target.searchParams.set('auth_code', code);
    }
    if (form.state) target.searchParams.set('state', form.state);
    ctx.redirect(target.toString());
  });

  router.post('/short_video_ads/open_api/v1.3/oauth2/access_token/', (ctx) => {
    const body = (ctx.request.body ?? {}) as { app_id?: string; secret?: string; auth_code?: string };
    if (body.app_id !== SANDBOX_ADS_APP.appId || body.secret !== SANDBOX_ADS_APP.secret)
      return answer(ctx, 40101, 'The app_id or secret is invalid.');
    const code = codes.get(body.auth_code ?? '');
    if (!code || code.used || code.expiresAt < Date.now()) return answer(ctx, 40110, 'The auth_code is invalid or has expired.');
    code.used = true;
    const accessToken = randomBytes(20).toString('hex');
    tokens.set(accessToken, { advertiserIds: code.advertiserIds, revoked: false });
    answer(ctx, 0, 'OK', { access_token: accessToken, advertiser_ids: code.advertiserIds, scope: [1, 2, 3, 4] });
  });

  /** The advertisers a token reaches; the app authenticates itself as well. */
  router.get('/short_video_ads/open_api/v1.3/oauth2/advertiser/get/', (ctx) => {
    if (ctx.query.app_id !== SANDBOX_ADS_APP.appId || ctx.query.secret !== SANDBOX_ADS_APP.secret)
      return answer(ctx, 40101, 'The app_id or secret is invalid.');
    const token = authorised(ctx);
    if (!token) return;
    answer(ctx, 0, 'OK', {
      list: token.advertiserIds.map((id) => ({ advertiser_id: id, advertiser_name: advertisers.get(id)?.name ?? id })),
    });
  });

  router.get('/short_video_ads/open_api/v1.3/advertiser/info/', (ctx) => {
    const token = authorised(ctx);
    if (!token) return;
    let ids: unknown;
    try {
      ids = JSON.parse(String(ctx.query.advertiser_ids ?? ''));
    } catch {
      ids = null;
    }
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100)
      return answer(ctx, 40002, 'advertiser_ids: Field must be a JSON array of 1 to 100 ids.');
    if (ids.some((id) => !token.advertiserIds.includes(String(id)))) return answer(ctx, 40001, 'No permission to operate the advertiser.');
    let fields: string[] | null = null;
    if (ctx.query.fields) fields = JSON.parse(String(ctx.query.fields)) as string[];
    const list = ids
      .map((id) => advertisers.get(String(id))!)
      .map((a) => (fields ? Object.fromEntries(fields.map((f) => [f, a[f as keyof Advertiser] ?? null])) : a));
    answer(ctx, 0, 'OK', { list });
  });

  // The people on the platform.
  /** Another advertiser the signed-in person owns (to see a status or a currency mapped). */
  router.post('/_sandbox/short_video_ads/advertisers', (ctx) => {
    const body = (ctx.request.body ?? {}) as Partial<Advertiser>;
    nextId += 1n;
    const advertiser: Advertiser = { ...DEMO_ADVERTISERS[0]!, ...body, advertiser_id: String(nextId) };
    advertisers.set(advertiser.advertiser_id, advertiser);
    ctx.status = 201;
    ctx.body = advertiser;
  });
  /**
   * The advertisers revoke the app's authorisation in Business Center: every token granting one of them stops
   * working (40105; every token when none are named). With `webhookUrl` (standing for the callback URL set in
   * the developer portal) the platform then sends the signed `authorization.removed` naming them.
   */
  router.post('/_sandbox/short_video_ads/revoke-access', async (ctx) => {
    const body = (ctx.request.body ?? {}) as { advertiserIds?: string[]; webhookUrl?: string; reason?: number };
    const named = body.advertiserIds;
    const revoked = new Set<string>();
    for (const token of tokens.values()) {
      if (named && !token.advertiserIds.some((id) => named.includes(id))) continue;
      token.revoked = true;
      for (const id of token.advertiserIds) revoked.add(id);
    }
    const advertiserIds = named ?? [...revoked];
    const content = { advertiser_ids: advertiserIds, reason: body.reason ?? 1 };
    const sent = body.webhookUrl ? await send(body.webhookUrl, { event: 'authorization.removed', content }) : { webhookStatus: null };
    ctx.body = { revoked: true, advertiserIds, ...sent };
  });
  /** Any event the platform sends (a lead, an ad's review), signed as asked: well, or with a fault (`mismatch`, `stale`, `future`). */
  router.post('/_sandbox/short_video_ads/events', async (ctx) => {
    const body = (ctx.request.body ?? {}) as { webhookUrl?: string; event?: string; content?: Record<string, unknown>; signing?: Signing };
    if (!body.webhookUrl || !body.event) {
      ctx.status = 400;
      ctx.body = { error: 'event and a webhookUrl are needed' };
      return;
    }
    ctx.body = await send(body.webhookUrl, { event: body.event, content: body.content ?? {} }, body.signing);
  });
  /** The advertiser a call names, which its token must reach (40001 otherwise). */
  const advertiser = (ctx: RouterContext, id: unknown): Advertiser | null => {
    const token = authorised(ctx);
    if (!token) return null;
    if (!token.advertiserIds.includes(String(id ?? ''))) {
      answer(ctx, 40001, 'No permission to operate the advertiser.');
      return null;
    }
    return advertisers.get(String(id))!;
  };
  const spark = mountSpark(router, { answer, advertiser }, '/short_video_ads/open_api/v1.3', restored?.spark);
  const tree = mountCampaignTree(router, { answer, advertiser }, '/short_video_ads/open_api/v1.3', spark.refusal, restored?.tree);
  const instantForms = mountInstantForms(
    router,
    { answer, advertisersOf: (ctx) => authorised(ctx)?.advertiserIds ?? null, send: (url, event) => send(url, event) },
    restored?.instantForms,
  );
  const reports = mountReports(router, { answer, advertiser }, '/short_video_ads/open_api/v1.3', () => tree.state(), restored?.reports);
  mountTargetingTools(router, { answer, advertiser }, '/short_video_ads/open_api/v1.3');
  mountIdentities(router, { answer, advertiser }, '/short_video_ads/open_api/v1.3', spark.identitiesOf);
  const audiences = mountAudiences(router, { answer, advertiser }, '/short_video_ads/open_api/v1.3', restored?.audiences);
  const pixels = mountPixels(router, { answer, advertiser }, '/short_video_ads/open_api/v1.3', restored?.pixels);
  return {
    state: (): ShortVideoAdsState => ({
      advertisers,
      codes,
      tokens,
      nextId,
      tree: tree.state(),
      instantForms: instantForms(),
      reports: reports.state(),
      audiences: audiences.state(),
      spark: spark.state(),
      pixels: pixels.state(),
    }),
  };
}
