import type Router from '@koa/router';
import { shortVideoApi } from './api.js';
import { fieldOf } from './posting.js';
import type { PostingState } from './posting-state.js';
import type { ShortVideoState } from './state.js';

/**
 * `POST /v2/video/query/` (scope video.list): the creator's own videos by id, with the fields asked for (at most
 * 20 ids); ids of other creators' videos are left out, as the platform does. And a control for the creator's
 * follower count, which `/v2/user/info/` reports (scope user.info.stats).
 */
export function mountShortVideoInsights(router: Router, state: ShortVideoState, posting: PostingState): void {
  const { apiError, ok, authorised } = shortVideoApi(state);

  router.post('/short_video/v2/video/query/', (ctx) => {
    const openId = authorised(ctx, 'video.list');
    if (!openId) return;
    const fields = String(ctx.query.fields ?? '')
      .split(',')
      .filter(Boolean);
    const ids = ((ctx.request.body ?? {}) as { filters?: { video_ids?: string[] } }).filters?.video_ids ?? [];
    if (fields.length === 0 || ids.length === 0 || ids.length > 20)
      return apiError(ctx, 400, 'invalid_params', 'fields and filters.video_ids (1 to 20) are required.');
    const videos = ids
      .map((id) => posting.posts.get(id))
      .filter((post) => post !== undefined && post.openId === openId)
      .map((post) => Object.fromEntries(fields.map((field) => [field, fieldOf(post!, field)])));
    ok(ctx, { videos });
  });

  /** The creator's followers now. */
  router.post('/_sandbox/short_video/followers', (ctx) => {
    const body = ctx.request.body as { openId: string; followers: number };
    const user = state.users.get(body.openId);
    if (!user) return apiError(ctx, 404, 'not_found', 'no such creator');
    user.followers = body.followers;
    ctx.body = { followers: user.followers };
  });
}
