import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { PublicUrls } from '../public-urls.js';

/** What the posting endpoints need from the OAuth half of the sandbox. */
export interface ThreadsSandboxAuth {
  /** The user id of the working token in `access_token`, or null with the Graph 190 written already. */
  authenticate(ctx: RouterContext): { userId: string; scopes: string[] } | null;
  fail(ctx: RouterContext, code: number, message: string, subcode?: number, status?: number): void;
  params(ctx: RouterContext): Record<string, string>;
  userExists(userId: string): boolean;
  usernameOf(userId: string): string;
}

/** A post's or reply's shortcode, the last part of its permalink. */
export const shortcodeOf = (id: string) => id.slice(-8);

type Status = 'IN_PROGRESS' | 'FINISHED' | 'PUBLISHED' | 'ERROR' | 'EXPIRED';
interface Container {
  id: string;
  userId: string;
  mediaType: string;
  text: string | null;
  mediaUrl: string | null;
  isCarouselItem: boolean;
  children: string[];
  replyControl: string;
  /** A reply's container: the thread or reply it answers (replies.ts keeps the reply once published). */
  replyToId: string | null;
  createdAt: number;
  readyAt: number;
  status: Status;
  errorMessage: string | null;
}
interface Thread {
  id: string;
  userId: string;
  text: string | null;
  mediaType: string;
  mediaUrl: string | null;
  children: string[];
  replyControl: string;
  timestamp: string;
  permalink: string;
  containerId: string | null;
}
/**
 * Failures a test switches on: `rate_limited` (the next publish answers code 4), `processing_error` (the next
 * media container fails processing with `errorMessage`), `error_after_publish` (published, then a 500 as answer),
 * `hang_after_publish` (published, never answered).
 */
type Fault =
  | { kind: 'rate_limited' }
  | { kind: 'processing_error'; errorMessage?: string }
  | { kind: 'error_after_publish' }
  | { kind: 'hang_after_publish' };

/** Replies (replies.ts): whether a thread or reply can be answered, and a published reply handed over. */
export interface ThreadsReplyTarget {
  exists(id: string): boolean;
  publish(reply: { id: string; userId: string; replyToId: string; text: string | null }): void;
}

/** What publishing keeps across a restart: containers, threads and the next id (faults and settings are not kept). */
export interface ThreadsPostingState {
  containers: Map<string, Container>;
  threads: Thread[];
  nextId: bigint;
}

const MEDIA_TYPES = new Set(['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL']);
const REPLY_CONTROLS = new Set(['everyone', 'accounts_you_follow', 'mentioned_only', 'followers_only']);
const IMAGE_TYPES = /^image\/(jpeg|png)\b/;
const VIDEO_TYPES = /^video\/(mp4|quicktime)\b/;
const IMAGE_MAX_BYTES = 8 * 1024 * 1024;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Threads publishing: media containers (`POST /{user-id}/threads`, the media fetched from its URL as the platform
 * does, videos processed for a while), their status, `threads_publish` (each container once; 250 posts a day),
 * the user's threads (newest first, `since`/`until`, cursors), the publishing limit and `DELETE /{media-id}`.
 */
export function mountThreadsPosting(
  router: Router,
  auth: ThreadsSandboxAuth,
  replies: ThreadsReplyTarget,
  urls: PublicUrls,
  restored?: ThreadsPostingState,
): { state(): ThreadsPostingState; thread(id: string): { id: string; userId: string } | undefined } {
  const containers = restored?.containers ?? new Map<string, Container>();
  const threads = restored?.threads ?? [];
  const faults = new Map<string, Fault[]>();
  const settings = { videoProcessingMs: 1500, quotaTotal: 250 };
  // Graph ids are beyond a double's integers: counted as BigInt.
  let nextId = restored?.nextId ?? 18_000_000_000_000_001n;
  const newId = () => String(nextId++);

  const fault = (userId: string, kind: Fault['kind']): Fault | undefined => {
    const list = faults.get(userId) ?? [];
    const index = list.findIndex((f) => f.kind === kind);
    return index < 0 ? undefined : list.splice(index, 1)[0];
  };
  const ownUser = (ctx: RouterContext): { userId: string } | null => {
    const token = auth.authenticate(ctx);
    if (!token) return null;
    if (ctx.params.userId !== token.userId && ctx.params.userId !== 'me') {
      auth.fail(ctx, 10, 'Application does not have permission for this action');
      return null;
    }
    return token;
  };
  /** A container's status as of now: processing ends at `readyAt`; unpublished containers expire after 24 hours. */
  const statusOf = (container: Container): Status => {
    if (container.status === 'IN_PROGRESS' && Date.now() >= container.readyAt) container.status = 'FINISHED';
    if ((container.status === 'FINISHED' || container.status === 'IN_PROGRESS') && Date.now() - container.createdAt > DAY_MS)
      container.status = 'EXPIRED';
    if (container.mediaType !== 'CAROUSEL' || container.status !== 'FINISHED') return container.status;
    const children = container.children.map((id) => statusOf(containers.get(id)!));
    if (children.includes('ERROR')) return 'ERROR';
    return children.includes('IN_PROGRESS') ? 'IN_PROGRESS' : 'FINISHED';
  };

  /** The media as the platform fetches it: reachable, of the right type, within the size limit; a message when not. */
  async function fetchMedia(url: string, kind: 'IMAGE' | 'VIDEO'): Promise<{ code: number; subcode: number; message: string } | null> {
    const response = await urls.fetch(url);
    if (!response?.ok) {
      await response?.arrayBuffer().catch(() => {});
      return { code: 100, subcode: 2207052, message: `Media download has failed. The media could not be fetched from ${url}.` };
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    const type = response.headers.get('content-type') ?? '';
    if (!(kind === 'IMAGE' ? IMAGE_TYPES : VIDEO_TYPES).test(type)) {
      return { code: 100, subcode: 2207026, message: `Unsupported ${kind === 'IMAGE' ? 'image' : 'video'} format (${type || 'no type'}).` };
    }
    if (kind === 'IMAGE' && bytes.length > IMAGE_MAX_BYTES)
      return { code: 36000, subcode: 2207004, message: 'The image is too large to download. It should be less than 8 MiB.' };
    return null;
  }

  router.post('/social_threads/graph/:version/:userId/threads', async (ctx) => {
    const token = ownUser(ctx);
    if (!token) return;
    const p = auth.params(ctx);
    const mediaType = p.media_type ?? '';
    const isCarouselItem = p.is_carousel_item === 'true';
    if (!MEDIA_TYPES.has(mediaType)) return auth.fail(ctx, 100, `(#100) Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}`);
    if (p.text && [...p.text].length > 500) return auth.fail(ctx, 100, '(#100) Param text must be at most 500 characters long.');
    if (mediaType === 'TEXT' && !p.text) return auth.fail(ctx, 100, '(#100) The parameter text is required for TEXT posts.');
    const replyControl = p.reply_control ?? 'everyone';
    if (!REPLY_CONTROLS.has(replyControl)) return auth.fail(ctx, 100, '(#100) Param reply_control is not a valid value.');
    let children: string[] = [];
    if (mediaType === 'CAROUSEL') {
      children = (p.children ?? '')
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean);
      if (children.length < 2 || children.length > 20) return auth.fail(ctx, 100, '(#100) A carousel needs between 2 and 20 children.');
      const bad = children.find((id) => {
        const child = containers.get(id);
        return !child || child.userId !== token.userId || !child.isCarouselItem;
      });
      if (bad) return auth.fail(ctx, 100, `(#100) Param children contains an invalid carousel item ${bad}.`);
    }
    const replyToId = p.reply_to_id || null;
    if (replyToId && !threads.some((t) => t.id === replyToId) && !replies.exists(replyToId))
      return auth.fail(ctx, 100, `(#100) Param reply_to_id: no thread or reply ${replyToId}.`);
    const mediaUrl = mediaType === 'IMAGE' ? p.image_url : mediaType === 'VIDEO' ? p.video_url : undefined;
    if ((mediaType === 'IMAGE' || mediaType === 'VIDEO') && !mediaUrl)
      return auth.fail(ctx, 100, `(#100) The parameter ${mediaType === 'IMAGE' ? 'image_url' : 'video_url'} is required.`);
    if (mediaUrl) {
      const refused = await fetchMedia(mediaUrl, mediaType as 'IMAGE' | 'VIDEO');
      if (refused) return auth.fail(ctx, refused.code, refused.message, refused.subcode);
    }
    const failing = mediaUrl ? fault(token.userId, 'processing_error') : undefined;
    const now = Date.now();
    const container: Container = {
      id: newId(),
      userId: token.userId,
      mediaType,
      text: p.text || null,
      mediaUrl: mediaUrl ?? null,
      isCarouselItem,
      children,
      replyControl,
      replyToId,
      createdAt: now,
      readyAt: mediaType === 'VIDEO' ? now + settings.videoProcessingMs : now,
      status: failing ? 'ERROR' : 'IN_PROGRESS',
      errorMessage: failing?.kind === 'processing_error' ? (failing.errorMessage ?? 'FAILED_PROCESSING_VIDEO') : null,
    };
    containers.set(container.id, container);
    ctx.body = { id: container.id };
  });

  router.post('/social_threads/graph/:version/:userId/threads_publish', async (ctx) => {
    const token = ownUser(ctx);
    if (!token) return;
    const container = containers.get(auth.params(ctx).creation_id ?? '');
    if (!container || container.userId !== token.userId || container.isCarouselItem) {
      return auth.fail(ctx, 24, 'The requested resource does not exist', 4279009);
    }
    const status = statusOf(container);
    if (status === 'PUBLISHED') return auth.fail(ctx, 24, 'The media has already been published.', 4279010);
    if (status === 'EXPIRED') return auth.fail(ctx, 24, 'The media container has expired; create a new one.', 4279011);
    if (status === 'ERROR')
      return auth.fail(ctx, 24, `The media container failed processing: ${container.errorMessage ?? 'UNKNOWN'}`, 4279012);
    if (status === 'IN_PROGRESS') return auth.fail(ctx, 24, 'The media is not ready for publishing, please wait for a moment.', 4279001);
    const published = threads.filter(
      (t) => t.userId === token.userId && t.containerId && Date.now() - Date.parse(t.timestamp) < DAY_MS,
    ).length;
    if (fault(token.userId, 'rate_limited') || published >= settings.quotaTotal) {
      ctx.set('X-App-Usage', JSON.stringify({ call_count: 100, total_cputime: 12, total_time: 15 }));
      return auth.fail(ctx, 4, 'Application request limit reached');
    }
    container.status = 'PUBLISHED';
    const id = newId();
    if (container.replyToId) replies.publish({ id, userId: token.userId, replyToId: container.replyToId, text: container.text });
    else
      threads.unshift({
        id,
        userId: token.userId,
        text: container.text,
        mediaType:
          container.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : container.mediaType === 'TEXT' ? 'TEXT_POST' : container.mediaType,
        mediaUrl: container.mediaUrl ? `https://scontent.threads.example/m/${id}` : null,
        children: container.children.map((child) => `https://scontent.threads.example/m/${child}`),
        replyControl: container.replyControl,
        timestamp: new Date().toISOString().replace(/\.\d+Z$/, '+0000'),
        permalink: `https://www.threads.net/@${auth.usernameOf(token.userId)}/post/${shortcodeOf(id)}`,
        containerId: container.id,
      });
    if (fault(token.userId, 'hang_after_publish')) await new Promise(() => {});
    if (fault(token.userId, 'error_after_publish')) return auth.fail(ctx, 2, 'Service temporarily unavailable', undefined, 500);
    ctx.body = { id };
  });

  router.get('/social_threads/graph/:version/:userId/threads_publishing_limit', (ctx) => {
    const token = ownUser(ctx);
    if (!token) return;
    const usage = threads.filter((t) => t.userId === token.userId && t.containerId && Date.now() - Date.parse(t.timestamp) < DAY_MS).length;
    ctx.body = { data: [{ quota_usage: usage, config: { quota_total: settings.quotaTotal, quota_duration: 86_400 } }] };
  });

  router.get('/social_threads/graph/:version/:userId/threads', (ctx) => {
    const token = ownUser(ctx);
    if (!token) return;
    const p = auth.params(ctx);
    const since = p.since ? Number(p.since) * 1000 : -Infinity;
    const until = p.until ? Number(p.until) * 1000 : Infinity;
    const mine = threads.filter((t) => t.userId === token.userId && Date.parse(t.timestamp) >= since && Date.parse(t.timestamp) <= until);
    const limit = Math.min(Number(p.limit) || 25, 100);
    const start = p.after ? Number(Buffer.from(p.after, 'base64url').toString()) || 0 : 0;
    const page = mine.slice(start, start + limit);
    const fields = (p.fields ?? 'id').split(',').map((f) => f.trim().replace(/\{.*\}$/, ''));
    ctx.body = {
      data: page.map((t) => viewOf(t, fields, auth.usernameOf(t.userId))),
      paging: {
        cursors: {
          before: Buffer.from(String(start)).toString('base64url'),
          after: Buffer.from(String(start + page.length)).toString('base64url'),
        },
        ...(start + limit < mine.length
          ? { next: `https://graph.threads.example/next?after=${Buffer.from(String(start + limit)).toString('base64url')}` }
          : {}),
      },
    };
  });

  router.get('/social_threads/graph/:version/:objectId', (ctx, next) => {
    if (ctx.params.objectId === 'me') return next();
    const token = auth.authenticate(ctx);
    if (!token) return;
    const fields = (auth.params(ctx).fields ?? 'id').split(',').map((f) => f.trim().replace(/\{.*\}$/, ''));
    const container = containers.get(ctx.params.objectId ?? '');
    if (container && container.userId === token.userId) {
      const status = statusOf(container);
      ctx.body = {
        id: container.id,
        ...(fields.includes('status') ? { status } : {}),
        ...(fields.includes('error_message') && status === 'ERROR' ? { error_message: container.errorMessage } : {}),
      };
      return;
    }
    const thread = threads.find((t) => t.id === ctx.params.objectId && t.userId === token.userId);
    if (!thread)
      return auth.fail(
        ctx,
        100,
        `Unsupported get request. Object with ID '${ctx.params.objectId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        33,
      );
    ctx.body = viewOf(thread, fields, auth.usernameOf(thread.userId));
  });

  router.delete('/social_threads/graph/:version/:objectId', (ctx) => {
    const token = auth.authenticate(ctx);
    if (!token) return;
    if (!token.scopes.includes('threads_delete')) return auth.fail(ctx, 10, 'Application does not have permission for this action');
    const index = threads.findIndex((t) => t.id === ctx.params.objectId && t.userId === token.userId);
    if (index < 0)
      return auth.fail(
        ctx,
        100,
        `Unsupported delete request. Object with ID '${ctx.params.objectId}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        33,
      );
    threads.splice(index, 1);
    ctx.body = { success: true, deleted_id: ctx.params.objectId };
  });

  /** A thread the person wrote in the Threads app (not through any API). */
  router.post('/_sandbox/social_threads/threads', (ctx) => {
    const { userId, text } = (ctx.request.body ?? {}) as { userId?: string; text?: string };
    if (!userId || !auth.userExists(userId)) return auth.fail(ctx, 100, 'no such person');
    const id = newId();
    const thread: Thread = {
      id,
      userId,
      text: text ?? null,
      mediaType: 'TEXT_POST',
      mediaUrl: null,
      children: [],
      replyControl: 'everyone',
      timestamp: new Date().toISOString().replace(/\.\d+Z$/, '+0000'),
      permalink: `https://www.threads.net/@${auth.usernameOf(userId)}/post/${shortcodeOf(id)}`,
      containerId: null,
    };
    threads.unshift(thread);
    ctx.status = 201;
    ctx.body = viewOf(thread, ['id', 'text', 'timestamp', 'permalink', 'media_type'], auth.usernameOf(userId));
  });
  /** Everything the person has on the platform, published or not: what a test checks happened exactly once. */
  router.get('/_sandbox/social_threads/posted', (ctx) => {
    const userId = String(ctx.query.userId ?? '');
    ctx.body = {
      threads: threads
        .filter((t) => t.userId === userId)
        .map((t) => ({
          ...viewOf(t, ['id', 'text', 'media_type', 'media_url', 'timestamp', 'permalink'], auth.usernameOf(t.userId)),
          replyControl: t.replyControl,
          children: t.children.length,
        })),
      containers: [...containers.values()]
        .filter((c) => c.userId === userId)
        .map((c) => ({ id: c.id, mediaType: c.mediaType, status: statusOf(c), isCarouselItem: c.isCarouselItem })),
    };
  });
  /** Containers left unpublished for a day: they expire. */
  router.post('/_sandbox/social_threads/expire-containers', (ctx) => {
    const { userId } = (ctx.request.body ?? {}) as { userId?: string };
    let expired = 0;
    for (const container of containers.values()) {
      if (container.userId === userId && !container.isCarouselItem && ['IN_PROGRESS', 'FINISHED'].includes(statusOf(container))) {
        container.createdAt -= DAY_MS + 1000;
        expired += 1;
      }
    }
    ctx.body = { expired };
  });
  router.post('/_sandbox/social_threads/faults', (ctx) => {
    const { userId, faults: added } = (ctx.request.body ?? {}) as { userId?: string; faults?: Fault[] };
    if (!userId) return auth.fail(ctx, 100, 'userId is required');
    faults.set(userId, [...(faults.get(userId) ?? []), ...(added ?? [])]);
    ctx.body = { pending: faults.get(userId)!.length };
  });
  router.post('/_sandbox/social_threads/publishing', (ctx) => {
    Object.assign(settings, (ctx.request.body ?? {}) as Partial<typeof settings>);
    ctx.body = settings;
  });
  return { state: () => ({ containers, threads, nextId }), thread: (id) => threads.find((t) => t.id === id) };
}

function viewOf(thread: Thread, fields: string[], username: string): Record<string, unknown> {
  const all: Record<string, unknown> = {
    id: thread.id,
    owner: { id: thread.userId },
    username,
    shortcode: shortcodeOf(thread.id),
    text: thread.text ?? undefined,
    timestamp: thread.timestamp,
    permalink: thread.permalink,
    media_type: thread.mediaType,
    media_url: thread.mediaUrl ?? undefined,
    media_product_type: 'THREADS',
    is_quote_post: false,
    children: thread.children.length ? { data: thread.children.map((url, i) => ({ id: `${thread.id}${i}`, media_url: url })) } : undefined,
  };
  return Object.fromEntries(['id', ...fields].filter((f) => all[f] !== undefined).map((f) => [f, all[f]]));
}
