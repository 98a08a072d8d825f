import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { PublicUrls } from '../public-urls.js';
import { shortVideoApi } from './api.js';
import type { ShortVideoState } from './state.js';
import { type Creator, type Post, PostingState, type Task } from './posting-state.js';

const INIT_PER_MINUTE = 6;
const MB = 1_000_000;

/**
 * The Content Posting API as our adapter uses it (Direct Post): creator_info, the video init with FILE_UPLOAD and
 * its chunked PUTs (checked against the media transfer guide's rules), the photo init with PULL_FROM_URL (the
 * photos fetched from their URLs over HTTP), status fetch, and the video list. Errors have the platform's bodies;
 * the init is limited to 6 a minute per user, as the real one is.
 */
export function mountShortVideoPosting(
  router: Router,
  state: ShortVideoState,
  posting: PostingState,
  pulling: { urls: PublicUrls; sandboxHost: string },
): void {
  const { apiError, ok, authorised } = shortVideoApi(state);

  /**
   * Whether the platform pulls from `url` for the app: a URL on the internet only from a domain verified for it
   * (or one below it; the sandbox's own is verified), one on this machine or its network as it is unless strict,
   * when the platform could not reach it and no one could have verified it.
   */
  const mayPull = (url: string): boolean => {
    const judged = pulling.urls.judge(url);
    if (judged !== 'public') return judged === 'local';
    const host = new URL(url).hostname;
    return [pulling.sandboxHost, ...state.settings.verifiedDomains].some((domain) => host === domain || host.endsWith(`.${domain}`));
  };

  /** The checks every init makes: the per-minute limit, a switched-on refusal, the privacy level against the creator's options. */
  const initAllowed = (ctx: RouterContext, openId: string, postInfo: Record<string, unknown>): Creator | null => {
    const recent = (posting.inits.get(openId) ?? []).filter((at) => at > Date.now() - 60_000);
    if (recent.length >= INIT_PER_MINUTE) {
      apiError(ctx, 429, 'rate_limit_exceeded', 'The API rate limit was exceeded. Please try again later.');
      return null;
    }
    posting.inits.set(openId, [...recent, Date.now()]);
    const fault = posting.takeFault(openId, ['init_refused', 'server_error']);
    if (fault?.kind === 'server_error') {
      apiError(ctx, 500, 'internal_error', 'Something went wrong. Please try again later.');
      return null;
    }
    if (fault?.kind === 'init_refused') {
      apiError(ctx, 403, fault.code, fault.message ?? 'The request was refused.');
      return null;
    }
    const creator = posting.creator(openId, state.settings.unaudited);
    const privacy = String(postInfo.privacy_level ?? '');
    if (!creator.privacyLevelOptions.includes(privacy)) {
      if (state.settings.unaudited)
        apiError(ctx, 403, 'unaudited_client_can_only_post_to_private_accounts', 'Unaudited clients can only post to a private account.');
      else apiError(ctx, 403, 'privacy_level_option_mismatch', "The privacy level is not one of the creator's options.");
      return null;
    }
    return creator;
  };

  router.post('/short_video/v2/post/publish/creator_info/query/', (ctx) => {
    const openId = authorised(ctx, 'video.publish');
    if (!openId) return;
    const user = state.users.get(openId)!;
    const creator = posting.creator(openId, state.settings.unaudited);
    ok(ctx, {
      creator_avatar_url: `https://sandbox.invalid/avatars/${user.unionId}.jpeg`,
      creator_username: user.username,
      creator_nickname: user.displayName,
      privacy_level_options: creator.privacyLevelOptions,
      comment_disabled: creator.commentDisabled,
      duet_disabled: creator.duetDisabled,
      stitch_disabled: creator.stitchDisabled,
      max_video_post_duration_sec: creator.maxVideoPostDurationSec,
    });
  });

  router.post('/short_video/v2/post/publish/video/init/', async (ctx) => {
    const openId = authorised(ctx, 'video.publish');
    if (!openId) return;
    const body = (ctx.request.body ?? {}) as { post_info?: Record<string, unknown>; source_info?: Record<string, unknown> };
    const postInfo = body.post_info ?? {};
    const source = body.source_info ?? {};
    if (String(postInfo.title ?? '').length > 2200) return apiError(ctx, 400, 'invalid_param', 'The title is longer than 2200 characters.');
    const size = Number(source.video_size);
    const chunk = Number(source.chunk_size);
    const count = Number(source.total_chunk_count);
    if (source.source !== 'FILE_UPLOAD') return apiError(ctx, 400, 'invalid_param', 'This sandbox takes source FILE_UPLOAD for videos.');
    const chunkRuleBroken =
      !(size > 0) ||
      !(chunk > 0) ||
      count !== Math.floor(size / chunk) ||
      count < 1 ||
      count > 1000 ||
      (size < 5 * MB ? chunk !== size : chunk < 5 * MB || chunk > 64 * MB) ||
      size - (count - 1) * chunk > 128 * MB;
    if (chunkRuleBroken) return apiError(ctx, 400, 'invalid_param', 'The chunk size or total chunk count is invalid.');
    if (!initAllowed(ctx, openId, postInfo)) return;
    const task = posting.newTask(openId, 'video', postInfo, { size, chunk, count });
    ok(ctx, {
      publish_id: task.publishId,
      upload_url: `${ctx.protocol}://${ctx.host}/short_video/upload/?upload_id=${task.uploadId}&upload_token=${task.uploadToken}`,
    });
    if (posting.takeFault(openId, ['hang_after_init'])) await new Promise(() => {});
  });

  router.post('/short_video/v2/post/publish/content/init/', async (ctx) => {
    const openId = authorised(ctx, 'video.publish');
    if (!openId) return;
    const body = (ctx.request.body ?? {}) as {
      media_type?: string;
      post_mode?: string;
      post_info?: Record<string, unknown>;
      source_info?: Record<string, unknown>;
    };
    const postInfo = body.post_info ?? {};
    const images = (body.source_info?.photo_images ?? []) as string[];
    if (body.media_type !== 'PHOTO' || !['DIRECT_POST', 'MEDIA_UPLOAD'].includes(body.post_mode ?? ''))
      return apiError(ctx, 400, 'invalid_param', 'media_type or post_mode is invalid.');
    if (body.source_info?.source !== 'PULL_FROM_URL')
      return apiError(ctx, 400, 'invalid_param', 'Photos can only be posted with source PULL_FROM_URL.');
    if (!Array.isArray(images) || images.length < 1 || images.length > 35)
      return apiError(ctx, 400, 'invalid_param', 'photo_images must have 1 to 35 URLs.');
    if (String(postInfo.title ?? '').length > 90 || String(postInfo.description ?? '').length > 4000)
      return apiError(ctx, 400, 'invalid_param', 'The title or description is too long.');
    const unverified = images.find((url) => !mayPull(String(url)));
    if (unverified !== undefined)
      return apiError(ctx, 403, 'url_ownership_unverified', `The domain or URL prefix of ${unverified} is not verified for the app.`);
    if (!initAllowed(ctx, openId, postInfo)) return;
    const task = posting.newTask(openId, 'photo', postInfo, null);
    // The platform pulls the photos on its own, whether or not anyone asks for the status.
    void pullPhotos(task, images).then(() => posting.finishLater(task));
    ok(ctx, { publish_id: task.publishId });
    if (posting.takeFault(openId, ['hang_after_init'])) await new Promise(() => {});
  });

  /** A chunk: it must be the next one in order, of the declared size, with its true length. 206 until the last, then 201. */
  router.put('/short_video/upload/', async (ctx) => {
    const task = posting.byUpload(String(ctx.query.upload_id ?? ''), String(ctx.query.upload_token ?? ''));
    const chunks: Buffer[] = [];
    for await (const piece of ctx.req) chunks.push(piece as Buffer);
    const bytes = Buffer.concat(chunks);
    if (!task || !task.upload) return void (ctx.status = 404);
    if (Date.now() - task.createdAt > 3600_000) return void (ctx.status = 403);
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(ctx.get('Content-Range'));
    if (!range || Number(range[3]) !== task.upload.size || Number(ctx.get('Content-Length')) !== bytes.length)
      return void (ctx.status = 400);
    const [start, end] = [Number(range[1]), Number(range[2])];
    if (end - start + 1 !== bytes.length) return void (ctx.status = 400);
    const received = task.received.reduce((sum, part) => sum + part.length, 0);
    const index = received / task.upload.chunk;
    const last = index === task.upload.count - 1;
    const expectedEnd = last ? task.upload.size - 1 : start + task.upload.chunk - 1;
    if (start !== received || end !== expectedEnd || index >= task.upload.count) return void (ctx.status = 416);
    task.received.push(bytes);
    task.contentType = ctx.get('Content-Type');
    if (!last) return void (ctx.status = 206);
    const file = Buffer.concat(task.received);
    task.sha256 = createHash('sha256').update(file).digest('hex');
    // What the platform's format check sees: an ISO media file (MP4, MOV) or a Matroska one (WebM).
    if (file.subarray(4, 8).toString('latin1') !== 'ftyp' && file.readUInt32BE(0) !== 0x1a45dfa3)
      task.failReason = 'file_format_check_failed';
    ctx.status = 201;
    posting.finishLater(task);
    if (posting.takeFault(task.openId, ['hang_after_upload'])) await new Promise(() => {});
  });

  router.post('/short_video/v2/post/publish/status/fetch/', (ctx) => {
    const openId = authorised(ctx, 'video.publish');
    if (!openId) return;
    const task = posting.tasks.get(String((ctx.request.body as { publish_id?: string } | undefined)?.publish_id ?? ''));
    if (!task) return apiError(ctx, 400, 'invalid_publish_id', 'The publish_id does not exist.');
    if (task.openId !== openId)
      return apiError(ctx, 400, 'token_not_authorized_for_specified_publish_id', 'The token is not authorized for this publish_id.');
    const uploaded = task.received.reduce((sum, part) => sum + part.length, 0);
    const status = task.status === 'PROCESSING' ? (task.kind === 'video' ? 'PROCESSING_UPLOAD' : 'PROCESSING_DOWNLOAD') : task.status;
    const post = task.postId ? posting.posts.get(task.postId) : undefined;
    ok(ctx, {
      status,
      ...(task.status === 'FAILED' ? { fail_reason: task.failReason } : {}),
      // The post's id is given once it is public; a private post never has one.
      publicaly_available_post_id: post && PostingState.isPublic(post) ? [post.id] : [],
      ...(task.kind === 'video' ? { uploaded_bytes: uploaded } : { downloaded_bytes: task.downloaded }),
    });
    // A list of int64 numbers, as the platform writes it (not strings).
    ctx.type = 'json';
    ctx.body = JSON.stringify(ctx.body).replace(/("publicaly_available_post_id":\[)"(\d+)"/, '$1$2');
  });

  /** The creator's public videos, newest first; `cursor` is the create time in ms the next page starts before. */
  router.post('/short_video/v2/video/list/', (ctx) => {
    const openId = authorised(ctx, 'video.list');
    if (!openId) return;
    const fields = String(ctx.query.fields ?? '')
      .split(',')
      .filter(Boolean);
    const body = (ctx.request.body ?? {}) as { max_count?: number; cursor?: number };
    const max = body.max_count ?? 10;
    if (fields.length === 0 || !Number.isInteger(max) || max < 1 || max > 20)
      return apiError(ctx, 400, 'invalid_params', 'fields is required and max_count must be 1 to 20.');
    const all = [...posting.posts.values()]
      .filter((post) => post.openId === openId && PostingState.isPublic(post))
      .filter((post) => body.cursor === undefined || post.createdAtMs < body.cursor)
      .sort((a, b) => b.createdAtMs - a.createdAtMs);
    const page = all.slice(0, max);
    const listed = page.map((post) => Object.fromEntries(fields.map((field) => [field, fieldOf(post, field)])));
    ok(ctx, { videos: listed, cursor: page.at(-1)?.createdAtMs ?? body.cursor ?? 0, has_more: all.length > max });
  });

  /** Fetches every photo from its URL (no redirects followed); a failed or wrong-typed fetch fails the task. */
  async function pullPhotos(task: Task, urls: string[]): Promise<void> {
    for (const url of urls) {
      const response = await fetch(url, { redirect: 'manual' }).catch(() => null);
      if (!response || response.status !== 200) return void (task.failReason ??= 'photo_pull_failed');
      const bytes = Buffer.from(await response.arrayBuffer());
      task.downloaded += bytes.length;
      if (!/^image\/(jpeg|webp)$/.test(response.headers.get('content-type') ?? '')) task.failReason ??= 'file_format_check_failed';
    }
  }
}

/** A video's field as the API names it. */
export function fieldOf(post: Post, field: string): unknown {
  switch (field) {
    case 'id':
      return post.id;
    case 'title':
      return post.title;
    case 'video_description':
      return post.description;
    case 'create_time':
      return Math.floor(post.createdAtMs / 1000);
    case 'share_url':
      return `https://www.tiktok.com/@${post.username}/video/${post.id}`;
    case 'cover_image_url':
      return `https://p16-sign.sandbox.invalid/obj/${post.id}.jpeg`;
    case 'like_count':
      return post.likes;
    case 'comment_count':
      return post.comments;
    case 'share_count':
      return post.shares;
    case 'view_count':
      return post.views;
    case 'duration':
      return post.durationSec;
    default:
      return null;
  }
}
