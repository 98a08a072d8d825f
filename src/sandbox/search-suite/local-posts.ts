import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { PublicUrls } from '../public-urls.js';

interface LocalPost {
  name: string;
  summary?: string;
  topicType: string;
  languageCode?: string;
  callToAction?: unknown;
  event?: unknown;
  offer?: unknown;
  media?: Array<{ mediaFormat: string; sourceUrl: string; googleUrl?: string }>;
  state: 'LIVE';
  searchUrl: string;
  createTime: string;
  updateTime: string;
}

/** Like the bot sandbox's: `server_error` (nothing created), `rate_limited` (429), `hang_after_create` (created, no answer). */
type Fault = { kind: 'server_error' } | { kind: 'rate_limited' } | { kind: 'hang_after_create' };

/** What the local posts keep across a restart: each location's posts, and the next post's id (ids never repeat). */
export interface LocalPostsState {
  posts: Map<string, LocalPost[]>;
  nextId: number;
}

const TOPICS = new Set(['STANDARD', 'EVENT', 'OFFER', 'ALERT']);
/** What an update may change of a local post (its `updateMask`). */
const EDITABLE = new Set(['summary', 'callToAction', 'event', 'offer', 'languageCode']);

/**
 * Business Profile local posts (v4): create, list (newest first, paged), update (`updateMask`), delete, with Google's
 * error shape.
 * Photos are fetched from their `sourceUrl`, as the platform does (strict: only from the internet). Starts from
 * what it kept, if anything; returns what it keeps.
 */
export function mountLocalPosts(
  router: Router,
  stored: { restored: LocalPostsState | undefined; saveNow(): void },
  urls: PublicUrls,
  authorised: (ctx: RouterContext, scope: string) => boolean,
  apiError: (ctx: RouterContext, code: number, status: string, message: string) => void,
  locationExists: (name: string) => boolean,
): () => LocalPostsState {
  const posts = stored.restored?.posts ?? new Map<string, LocalPost[]>();
  const faults: Fault[] = [];
  let nextId = stored.restored?.nextId ?? 1;
  const business = 'https://www.googleapis.com/auth/business.manage';
  const base = '/search_suite/v4/accounts/:account/locations/:location/localPosts';
  const locationOf = (ctx: RouterContext) => `accounts/${ctx.params.account}/locations/${ctx.params.location}`;

  router.post(base, async (ctx) => {
    if (!authorised(ctx, business)) return;
    const location = locationOf(ctx);
    if (!locationExists(location)) return apiError(ctx, 404, 'NOT_FOUND', 'Requested entity was not found.');
    const body = (ctx.request.body ?? {}) as Partial<LocalPost>;
    const topicType = body.topicType ?? 'STANDARD';
    if (!TOPICS.has(topicType)) return apiError(ctx, 400, 'INVALID_ARGUMENT', `Invalid value at 'local_post.topic_type' (${topicType})`);
    if (body.summary && body.summary.length > 1500)
      return apiError(ctx, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument: summary is too long.');
    if ((topicType === 'EVENT' || topicType === 'OFFER') && !body.event)
      return apiError(ctx, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument: event is required.');
    const fault = faults.shift();
    if (refusedFor(ctx, fault)) return;
    for (const media of body.media ?? []) {
      const fetched = await urls.fetch(media.sourceUrl);
      if (!fetched?.ok || !/^image\/(jpeg|png)/.test(fetched.headers.get('content-type') ?? '')) {
        return apiError(
          ctx,
          400,
          'INVALID_ARGUMENT',
          `Request contains an invalid argument: media could not be fetched from ${media.sourceUrl}.`,
        );
      }
      await fetched.arrayBuffer();
    }
    const id = String(nextId++);
    const now = new Date().toISOString();
    const post: LocalPost = {
      ...body,
      name: `${location}/localPosts/${id}`,
      topicType,
      state: 'LIVE',
      createTime: now,
      updateTime: now,
      searchUrl: `https://local.sandbox.example/place?use=posts&lpsid=${id}`,
      ...(body.media ? { media: body.media.map((m) => ({ ...m, googleUrl: `https://lh3.sandbox.example/p/${id}` })) } : {}),
    };
    posts.set(location, [post, ...(posts.get(location) ?? [])]);
    if (fault?.kind === 'hang_after_create') {
      // The request never ends, so it is never followed by a save: the post it made is kept now.
      stored.saveNow();
      await new Promise(() => {});
    }
    ctx.body = post;
  });

  /** The next fault, answered here when it refuses the call before anything is done (500, 429); true when it did. */
  const refusedFor = (ctx: RouterContext, fault: Fault | undefined): boolean => {
    if (fault?.kind === 'server_error') apiError(ctx, 500, 'INTERNAL', 'Internal error encountered.');
    else if (fault?.kind === 'rate_limited') {
      ctx.set('Retry-After', '1');
      apiError(ctx, 429, 'RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'Requests'.");
    } else return false;
    return true;
  };

  /** The members `updateMask` names take the body's; the post as it becomes is answered. */
  router.patch(`${base}/:id`, (ctx) => {
    if (!authorised(ctx, business)) return;
    const post = (posts.get(locationOf(ctx)) ?? []).find((one) => one.name === `${locationOf(ctx)}/localPosts/${ctx.params.id}`);
    if (!post) return apiError(ctx, 404, 'NOT_FOUND', 'Requested entity was not found.');
    const mask = String(ctx.query.updateMask ?? '')
      .split(',')
      .filter(Boolean);
    if (mask.length === 0) return apiError(ctx, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument: updateMask is required.');
    const unknown = mask.find((field) => !EDITABLE.has(field));
    if (unknown) return apiError(ctx, 400, 'INVALID_ARGUMENT', `Invalid field mask path: ${unknown}.`);
    const body = (ctx.request.body ?? {}) as Record<string, unknown>;
    if (typeof body.summary === 'string' && body.summary.length > 1500)
      return apiError(ctx, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument: summary is too long.');
    if (refusedFor(ctx, faults.shift())) return;
    Object.assign(post, Object.fromEntries(mask.map((field) => [field, body[field]])), { updateTime: new Date().toISOString() });
    ctx.body = post;
  });

  router.get(base, (ctx) => {
    if (!authorised(ctx, business)) return;
    const all = posts.get(locationOf(ctx)) ?? [];
    const size = Math.min(Number(ctx.query.pageSize ?? 20) || 20, 100);
    const start = Number(ctx.query.pageToken ?? 0) || 0;
    const page = all.slice(start, start + size);
    ctx.body = { localPosts: page, ...(start + size < all.length ? { nextPageToken: String(start + size) } : {}) };
  });

  router.delete(`${base}/:id`, (ctx) => {
    if (!authorised(ctx, business)) return;
    const all = posts.get(locationOf(ctx)) ?? [];
    const index = all.findIndex((post) => post.name === `${locationOf(ctx)}/localPosts/${ctx.params.id}`);
    if (index < 0) return apiError(ctx, 404, 'NOT_FOUND', 'Requested entity was not found.');
    all.splice(index, 1);
    ctx.body = {};
  });

  // A post its owner made in the platform's own app (not through any API): history must show it too.
  router.post('/_sandbox/search_suite/local-posts', (ctx) => {
    const { location, summary } = (ctx.request.body ?? {}) as { location?: string; summary?: string };
    if (!location || !locationExists(location)) return apiError(ctx, 404, 'NOT_FOUND', 'Requested entity was not found.');
    const id = String(nextId++);
    const now = new Date().toISOString();
    const post: LocalPost = {
      name: `${location}/localPosts/${id}`,
      summary,
      topicType: 'STANDARD',
      state: 'LIVE',
      createTime: now,
      updateTime: now,
      searchUrl: `https://local.sandbox.example/place?use=posts&lpsid=${id}`,
    };
    posts.set(location, [post, ...(posts.get(location) ?? [])]);
    ctx.status = 201;
    ctx.body = post;
  });

  router.post('/_sandbox/search_suite/faults', (ctx) => {
    faults.push(...(((ctx.request.body ?? {}) as { faults?: Fault[] }).faults ?? []));
    ctx.body = { pending: faults.length };
  });

  return () => ({ posts, nextId });
}
