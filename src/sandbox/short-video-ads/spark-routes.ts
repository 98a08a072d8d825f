import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { apiTime } from './campaign-tree.js';
import type { ReportApi } from './report-routes.js';

type Body = Record<string, unknown>;

/** A code a creator generated for one post (TikTok app → Ad settings), and the advertisers it is bound to. */
interface SparkCode {
  itemId: string;
  /** The creator as the ad shows them (`AUTH_CODE` identity). */
  identityId: string;
  displayName: string;
  expiresAt: number;
  advertiserIds: string[];
  /** The creator withdrew it: bound advertisers' Spark ads of the post are refused. */
  revoked: boolean;
}

/** A creator's TikTok account linked to an advertiser (`TT_USER`): its posts, each switched on for ads or not. */
interface LinkedAccount {
  advertiserId: string;
  identityId: string;
  displayName: string;
  posts: Record<string, boolean>;
}

/** What Spark ads keep across a restart. */
export interface SparkState {
  codes: Map<string, SparkCode>;
  linked: Map<string, LinkedAccount>;
  nextId: bigint;
}

/** An identity as `identity/get` lists it. */
export interface ListedIdentity {
  identity_id: string;
  identity_type: string;
  display_name: string;
  can_pull_video: boolean;
}

const DAY_MS = 86_400_000;
const emptySpark = (): SparkState => ({ codes: new Map(), linked: new Map(), nextId: 7311000000000000000n });

/**
 * Spark ads of the Business API v1.3 (best knowledge where the SDK is silent: see
 * src/platforms/short-video-ads/spark.ts): a creator's code read (`tt_video/info`) and bound to an advertiser
 * (`tt_video/authorize`), the posts bound (`tt_video/list`), a linked account's post (`identity/video/info`), and
 * the check of an ad naming a post (`tiktok_item_id` with its creator's identity). A code unknown, expired or
 * withdrawn is a 40002 naming `auth_code`. The people: a creator generates a code for a post (`spark-codes`),
 * withdraws it (`spark-codes/revoke`); an advertiser links a creator's account with its posts (`linked-accounts`).
 */
export function mountSpark(
  router: Router,
  api: ReportApi,
  base: string,
  restored?: SparkState,
): {
  state(): SparkState;
  identitiesOf(advertiserId: string): ListedIdentity[];
  refusal(creative: Body, advertiserId: string): string | null;
} {
  const spark = restored ?? emptySpark();
  const nextId = () => String((spark.nextId += 1n));
  const bad = (ctx: RouterContext, message: string) => api.answer(ctx, 40002, message);
  const query = (ctx: RouterContext) => ctx.query as Record<string, string | undefined>;
  /** The creator's code, usable: else why not. */
  const usable = (code: SparkCode | undefined): string | null => {
    if (!code) return 'The authorization code does not exist.';
    if (code.revoked) return 'The creator has withdrawn the authorization code.';
    if (code.expiresAt < Date.now()) return 'The authorization code has expired.';
    return null;
  };
  const videoOf = (code: SparkCode) => ({
    item_info: { item_id: code.itemId, auth_start_time: apiTime(code.expiresAt - 30 * DAY_MS), auth_end_time: apiTime(code.expiresAt) },
    user_info: { identity_id: code.identityId, identity_type: 'AUTH_CODE', display_name: code.displayName },
    video_info: { duration: 15, width: 1080, height: 1920 },
  });

  router.get(`${base}/tt_video/info/`, (ctx) => {
    const q = query(ctx);
    if (!api.advertiser(ctx, q.advertiser_id)) return;
    const code = spark.codes.get(q.auth_code ?? '');
    const why = usable(code);
    if (why) return bad(ctx, `auth_code: ${why}`);
    api.answer(ctx, 0, 'OK', videoOf(code!));
  });

  router.post(`${base}/tt_video/authorize/`, (ctx) => {
    const body = (ctx.request.body ?? {}) as Body;
    const advertiser = api.advertiser(ctx, body.advertiser_id);
    if (!advertiser) return;
    const code = spark.codes.get(String(body.auth_code ?? ''));
    const why = usable(code);
    if (why) return bad(ctx, `auth_code: ${why}`);
    if (!code!.advertiserIds.includes(advertiser.advertiser_id)) code!.advertiserIds.push(advertiser.advertiser_id);
    api.answer(ctx, 0, 'OK', {});
  });

  router.get(`${base}/tt_video/list/`, (ctx) => {
    const q = query(ctx);
    const advertiser = api.advertiser(ctx, q.advertiser_id);
    if (!advertiser) return;
    const page = Number(q.page ?? 1);
    const size = Number(q.page_size ?? 20);
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(size) || size < 1 || size > 50)
      return bad(ctx, 'page_size: Must be an integer from 1 to 50 (page from 1).');
    const bound = [...spark.codes.values()].filter((code) => code.advertiserIds.includes(advertiser.advertiser_id) && !usable(code));
    api.answer(ctx, 0, 'OK', {
      list: bound.slice((page - 1) * size, page * size).map(videoOf),
      page_info: { page, page_size: size, total_number: bound.length, total_page: Math.ceil(bound.length / size) },
    });
  });

  router.get(`${base}/identity/video/info/`, (ctx) => {
    const q = query(ctx);
    const advertiser = api.advertiser(ctx, q.advertiser_id);
    if (!advertiser) return;
    const account = spark.linked.get(q.identity_id ?? '');
    if (q.identity_type !== 'TT_USER' || !account || account.advertiserId !== advertiser.advertiser_id)
      return bad(ctx, 'identity_id: The identity does not exist for the advertiser.');
    const authorized = account.posts[q.item_id ?? ''];
    if (authorized === undefined) return bad(ctx, 'item_id: The post does not exist under the identity.');
    api.answer(ctx, 0, 'OK', {
      video_detail: {
        item_id: q.item_id,
        text: `A post of ${account.displayName}`,
        auth_info: { ad_auth_status: authorized ? 'AUTHORIZED' : 'UNAUTHORIZED' },
      },
    });
  });

  /** Why an ad cannot promote the post it names as the identity it names, or null. */
  function refusal(creative: Body, advertiserId: string): string | null {
    const itemId = String(creative.tiktok_item_id);
    if (creative.identity_type === 'AUTH_CODE') {
      const code = [...spark.codes.values()].find(
        (one) => one.itemId === itemId && one.identityId === creative.identity_id && one.advertiserIds.includes(advertiserId),
      );
      if (!code) return 'creatives.tiktok_item_id: The post is not authorized for the advertiser with this identity.';
      const why = usable(code);
      return why ? `creatives.tiktok_item_id: ${why}` : null;
    }
    if (creative.identity_type === 'TT_USER') {
      const account = spark.linked.get(String(creative.identity_id));
      if (!account || account.advertiserId !== advertiserId)
        return 'creatives.identity_id: The identity does not exist for the advertiser.';
      if (account.posts[itemId] === undefined) return 'creatives.tiktok_item_id: The post does not exist under the identity.';
      return account.posts[itemId] ? null : 'creatives.tiktok_item_id: The post is not authorized for ads by its creator.';
    }
    return 'creatives.identity_type: A Spark ad shows its creator: AUTH_CODE, TT_USER or BC_AUTH_TT.';
  }

  // The people.
  /** A creator generates a code for a post of theirs (a new post when none is named), valid `days` (default 30). */
  router.post('/_sandbox/short_video_ads/spark-codes', (ctx) => {
    const body = (ctx.request.body ?? {}) as { itemId?: string; displayName?: string; days?: number };
    const authCode = `#${randomBytes(24).toString('base64')}`;
    const code: SparkCode = {
      itemId: body.itemId ?? nextId(),
      identityId: `auth${randomBytes(8).toString('hex')}`,
      displayName: body.displayName ?? 'Sandbox Creator',
      expiresAt: Date.now() + (body.days ?? 30) * DAY_MS,
      advertiserIds: [],
      revoked: false,
    };
    spark.codes.set(authCode, code);
    ctx.status = 201;
    ctx.body = { authCode, itemId: code.itemId, identityId: code.identityId };
  });
  /** The creator withdraws a code: the posts' Spark ads cannot be made any more. */
  router.post('/_sandbox/short_video_ads/spark-codes/revoke', (ctx) => {
    const code = spark.codes.get(String(((ctx.request.body ?? {}) as { authCode?: string }).authCode ?? ''));
    if (!code) {
      ctx.status = 404;
      ctx.body = { error: 'no such code' };
      return;
    }
    code.revoked = true;
    ctx.body = { revoked: true };
  });
  /** A creator's TikTok account linked to the advertiser (a `TT_USER` identity), its posts switched on for ads or not. */
  router.post('/_sandbox/short_video_ads/linked-accounts', (ctx) => {
    const body = (ctx.request.body ?? {}) as { advertiserId?: string; displayName?: string; posts?: Record<string, boolean> };
    if (!body.advertiserId) {
      ctx.status = 400;
      ctx.body = { error: 'advertiserId is needed' };
      return;
    }
    const account: LinkedAccount = {
      advertiserId: body.advertiserId,
      identityId: `tt${randomBytes(8).toString('hex')}`,
      displayName: body.displayName ?? 'Sandbox Brand',
      posts: body.posts ?? { [nextId()]: true },
    };
    spark.linked.set(account.identityId, account);
    ctx.status = 201;
    ctx.body = account;
  });

  return {
    state: () => spark,
    identitiesOf: (advertiserId) =>
      [...spark.linked.values()]
        .filter((account) => account.advertiserId === advertiserId)
        .map((account) => ({
          identity_id: account.identityId,
          identity_type: 'TT_USER',
          display_name: account.displayName,
          can_pull_video: true,
        })),
    refusal,
  };
}
