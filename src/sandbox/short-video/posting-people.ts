import type Router from '@koa/router';
import type { Creator, Fault, PostingState } from './posting-state.js';
import { webhookSender } from './people.js';
import type { ShortVideoState } from './state.js';

/**
 * The people's side of posting: a creator changing their settings in the app (privacy options, interactions
 * turned off, their longest video), a post made in the app (not through any API), faults for the next init or
 * processing, and every post as the platform holds it — private ones and the bytes' digest included.
 */
export function mountShortVideoPostingPeople(router: Router, state: ShortVideoState, posting: PostingState): void {
  router.post('/_sandbox/short_video/creator', (ctx) => {
    const { openId, ...settings } = (ctx.request.body ?? {}) as Partial<Creator> & { openId?: string };
    if (!openId || !state.users.has(openId)) return void Object.assign(ctx, { status: 404, body: { error: 'no such user' } });
    posting.creators.set(openId, { ...posting.creators.get(openId), ...settings });
    ctx.body = posting.creator(openId, state.settings.unaudited);
  });

  router.post('/_sandbox/short_video/faults', (ctx) => {
    const { openId, faults } = (ctx.request.body ?? {}) as { openId?: string; faults?: Fault[] };
    if (!openId) return void Object.assign(ctx, { status: 400, body: { error: 'openId is needed' } });
    posting.faults.set(openId, [...(posting.faults.get(openId) ?? []), ...(faults ?? [])]);
    ctx.body = { pending: posting.faults.get(openId)!.length };
  });

  /** A minute has passed for the init limit: the creator's inits so far no longer count. */
  router.post('/_sandbox/short_video/minute-passed', (ctx) => {
    posting.inits.delete(String((ctx.request.body as { openId?: string } | undefined)?.openId ?? ''));
    ctx.body = {};
  });

  router.post('/_sandbox/short_video/videos', (ctx) => {
    const { openId, title, privacyLevel } = (ctx.request.body ?? {}) as { openId?: string; title?: string; privacyLevel?: string };
    if (!openId || !state.users.has(openId)) return void Object.assign(ctx, { status: 404, body: { error: 'no such user' } });
    ctx.status = 201;
    ctx.body = posting.addPost(openId, { title: title ?? '', description: title ?? '', ...(privacyLevel ? { privacyLevel } : {}) });
  });

  /**
   * The platform's review passes a held post: it becomes public, and the app hears `post.publish.publicly_available`
   * with the post's id (an int64, written as a number as the platform does) at its callback URL.
   */
  router.post('/_sandbox/short_video/review', async (ctx) => {
    const { postId, webhookUrl } = (ctx.request.body ?? {}) as { postId?: string; webhookUrl?: string };
    const post = posting.posts.get(String(postId ?? ''));
    if (!post?.underReview) return void Object.assign(ctx, { status: 404, body: { error: 'no post under review with this id' } });
    post.underReview = false;
    const url = webhookUrl ?? state.settings.webhookUrl;
    if (!url || !post.publishId) return void (ctx.body = { post, webhookStatus: null });
    const sent = await webhookSender(state)(
      url,
      'post.publish.publicly_available',
      post.openId,
      `{"publish_id":${JSON.stringify(post.publishId)},"post_id":${post.id}}`,
    );
    ctx.body = { post, webhookStatus: sent.webhookStatus };
  });

  router.get('/_sandbox/short_video/posts', (ctx) => {
    const openId = String(ctx.query.openId ?? '');
    const tasks = [...posting.tasks.values()].filter((task) => task.openId === openId);
    ctx.body = {
      posts: [...posting.posts.values()].filter((post) => post.openId === openId).sort((a, b) => b.createdAtMs - a.createdAtMs),
      inits: tasks.map((task) => ({
        publishId: task.publishId,
        kind: task.kind,
        status: task.status,
        failReason: task.failReason,
        postInfo: task.postInfo,
        chunks: task.received.map((part) => part.length),
      })),
    };
  });
}
