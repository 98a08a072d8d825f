import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { PagePost, PagePostsState, Photo, PostFault } from '../feed.js';
import { graphTime, videoStatusView } from '../graph.js';
import { defineSocialPart, type SocialNetwork } from '../part.js';
import type { Token } from '../state.js';

const PHOTO_TYPES = /^image\/(jpeg|png|gif|bmp|tiff)/;
const VIDEO_TYPES = /^video\/(mp4|quicktime)/;

/** `since`/`until`: a unix time in seconds or anything Date parses (the real API takes strtotime strings). */
const timeParam = (value: string | undefined) =>
  value === undefined ? undefined : /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);

/**
 * Page posts over the Graph API: `/{page}/feed`, `/{page}/photos` (from `url` or an uploaded `source`),
 * `/{page}/videos` (from `file_url`, processed in the background), `/{page}/published_posts`, editing a post's text
 * and deleting (their comments: comments.ts). Media are fetched from their URL over HTTP as the platform does. People's controls: a
 * post made in the app, faults, everything a page has.
 */
export const postsPart = defineSocialPart<PagePostsState>({ key: 'posts', mount: mountPagePosts });

function mountPagePosts(
  router: Router,
  { state, graph, feed, base, urls }: SocialNetwork,
  restored: PagePostsState | undefined,
): { state(): PagePostsState } {
  feed.restore(restored);
  const { posts, photos, videos } = feed;

  /** The page's own token with pages_manage_posts, else the Graph's refusal is written and null returned. */
  const pageToken = (ctx: RouterContext, pageId: string): Token | null => {
    const token = graph.authenticate(ctx);
    if (!token) return null;
    const user = state.users.get(token.userId)!;
    if (!state.pages.has(pageId) || !user.pageIds.includes(pageId)) graph.unknownObject(ctx, pageId);
    else if (token.kind !== 'page' || token.pageId !== pageId)
      graph.fail(ctx, 400, 210, '(#210) A page access token is required to request this resource.');
    else if (!state.granted(token, 'pages_manage_posts')) graph.missingPermission(ctx, 'pages_manage_posts');
    else return token;
    return null;
  };

  /** A fault that refuses a create call before anything is made; true when it answered. */
  const refused = (ctx: RouterContext, pageId: string, edge: string): boolean => {
    const fault = feed.takeFault(pageId, ['rate_limited', 'duplicate', 'policy', 'server_error'], edge);
    if (!fault) return false;
    if (fault.kind === 'rate_limited') {
      const usage = {
        [pageId]: [
          { type: 'pages', call_count: 100, total_cputime: 30, total_time: 40, estimated_time_to_regain_access: fault.minutes ?? 0 },
        ],
      };
      graph.fail(ctx, 400, 32, '(#32) Page request limit reached', { headers: { 'X-Business-Use-Case-Usage': JSON.stringify(usage) } });
    } else if (fault.kind === 'duplicate') graph.fail(ctx, 400, 506, '(#506) Duplicate status message');
    else if (fault.kind === 'policy')
      graph.fail(ctx, 400, 368, '(#368) The action attempted has been deemed abusive or is otherwise disallowed');
    else graph.fail(ctx, 500, 2, 'An unexpected error has occurred. Please retry your request later.', { type: 'FacebookApiException' });
    return true;
  };
  /** The post is made but the answer never comes (the caller's connection times out or its process dies). */
  const hangIfAsked = async (pageId: string, edge: string) => {
    if (feed.takeFault(pageId, ['hang_after_create'], edge)) await new Promise(() => {});
  };

  /** The bytes behind a URL, if it answers 2xx with a content type matching `types`. */
  const fetchMedia = async (url: string | undefined, types: RegExp): Promise<'ok' | 'unreachable' | 'wrong_type'> => {
    if (!url) return 'unreachable';
    const response = await urls.fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!response?.ok) return 'unreachable';
    await response.arrayBuffer();
    return types.test(response.headers.get('content-type') ?? '') ? 'ok' : 'wrong_type';
  };
  /**
   * The photo a `POST /{page}/photos` gives, as the Graph takes one: a file uploaded as the multipart member
   * `source`, or a `url` it fetches. Where the platform keeps it, or null once the refusal (324) is written.
   */
  const photoOf = async (ctx: RouterContext, id: string, url: string | undefined): Promise<string | null> => {
    const files = (ctx.request as { files?: Record<string, unknown> }).files ?? {};
    const source = (Array.isArray(files.source) ? files.source[0] : files.source) as
      { size?: number; mimetype?: string | null } | undefined;
    if (source ? (source.size ?? 0) > 0 && PHOTO_TYPES.test(source.mimetype ?? '') : (await fetchMedia(url, PHOTO_TYPES)) === 'ok')
      return source ? `https://scontent.social.example/photos/${id}.jpg` : url!;
    graph.fail(ctx, 400, 324, '(#324) Missing or invalid image file');
    return null;
  };

  router.post(`${base}/:pageId/feed`, async (ctx) => {
    const pageId = ctx.params.pageId!;
    if (!pageToken(ctx, pageId) || refused(ctx, pageId, 'feed')) return;
    const p = graph.params(ctx);
    let attached: Array<{ media_fbid?: string }> = [];
    try {
      attached = p.attached_media ? JSON.parse(p.attached_media) : [];
    } catch {
      return graph.fail(ctx, 400, 100, '(#100) param attached_media must be an array of objects');
    }
    if (!p.message && !p.link && attached.length === 0) return graph.fail(ctx, 400, 100, '(#100) Missing message or attachment');
    const attachedPhotos = attached.map((media) => photos.get(String(media.media_fbid)));
    if (attachedPhotos.some((photo) => !photo || photo.pageId !== pageId || photo.postId)) {
      return graph.fail(ctx, 400, 100, '(#100) param attached_media: the media_fbid is not an unpublished photo of this page');
    }
    if (p.link && (await fetchMedia(p.link, /./)) !== 'ok') {
      return graph.fail(ctx, 400, 100, 'The link could not be posted: the URL could not be fetched.', { subcode: 1609005 });
    }
    const last = [...posts.values()].filter((post) => post.pageId === pageId && !post.deleted).at(-1);
    if (p.message && attached.length === 0 && last?.message === p.message && (last.link ?? undefined) === p.link) {
      return graph.fail(ctx, 400, 506, '(#506) Duplicate status message');
    }
    const post = feed.newPost(pageId, {
      message: p.message || null,
      link: p.link || null,
      photoUrls: attachedPhotos.map((photo) => photo!.url),
    });
    for (const photo of attachedPhotos) photo!.postId = post.id;
    await hangIfAsked(pageId, 'feed');
    ctx.body = { id: post.id };
  });

  router.post(`${base}/:pageId/photos`, async (ctx) => {
    const pageId = ctx.params.pageId!;
    if (!pageToken(ctx, pageId) || refused(ctx, pageId, 'photos')) return;
    const p = graph.params(ctx);
    const id = state.newId();
    const url = await photoOf(ctx, id, p.url);
    if (!url) return;
    const photo: Photo = { id, pageId, url, postId: null };
    photos.set(photo.id, photo);
    if (p.published === 'false') {
      ctx.body = { id: photo.id };
      return;
    }
    const post = feed.newPost(pageId, { message: p.caption || p.message || null, photoUrls: [photo.url] });
    photo.postId = post.id;
    await hangIfAsked(pageId, 'photos');
    ctx.body = { id: photo.id, post_id: post.id };
  });

  router.post(`${base}/:pageId/videos`, async (ctx) => {
    const pageId = ctx.params.pageId!;
    if (!pageToken(ctx, pageId) || refused(ctx, pageId, 'videos')) return;
    const p = graph.params(ctx);
    const fetched = await fetchMedia(p.file_url, VIDEO_TYPES);
    if (fetched === 'unreachable') return graph.fail(ctx, 400, 389, '(#389) Unable to fetch video file from URL.');
    if (fetched === 'wrong_type')
      return graph.fail(ctx, 400, 352, "(#352) Sorry, the video file you selected is in a format that we don't support.");
    const id = state.newId();
    const post = feed.newPost(pageId, { message: p.description || null, videoId: id });
    const failing = feed.takeFault(pageId, ['video_processing_error']) !== undefined;
    videos.set(id, {
      id,
      pageId,
      description: p.description || null,
      title: p.title || null,
      status: 'processing',
      readsUntilReady: 1,
      failing,
      post,
    });
    await hangIfAsked(pageId, 'videos');
    ctx.body = { id };
  });

  /** A post as the Graph shows it, with the summaries the list can give. */
  const postView = (post: PagePost, origin: string) => {
    const video = post.videoId ? videos.get(post.videoId) : undefined;
    const media = post.photoUrls.map((url) => ({ type: 'photo', media: { image: { src: url, width: 720, height: 720 } } }));
    const attachment = video
      ? { type: 'video_inline', media: { source: `${origin}/social_network/cdn/v/${video.id}.mp4` }, target: { id: video.id } }
      : post.link
        ? { type: 'share', url: post.link }
        : media.length > 1
          ? { type: 'album', subattachments: { data: media } }
          : media[0];
    return {
      id: post.id,
      message: post.message ?? undefined,
      created_time: graphTime(post.createdAt),
      permalink_url: `https://social.example/${state.pages.get(post.pageId)?.username}/posts/${post.id.split('_')[1]}`,
      full_picture: post.photoUrls[0],
      attachments: attachment ? { data: [attachment] } : undefined,
      reactions: { data: [], summary: { total_count: post.reactions, viewer_reaction: 'NONE' } },
      comments: { data: [], summary: { order: 'chronological', total_count: post.comments.length, can_comment: true } },
      shares: post.shares ? { count: post.shares } : undefined,
    };
  };
  /** `reactions.summary(total_count).limit(0)` and `picture{url}` ask for `reactions` and `picture`. */
  const pick = (all: Record<string, unknown>, fields: string | undefined) => {
    const names = (fields ?? 'message,created_time').split(/,(?![^{(]*[})])/).map((field) => field.replace(/[.{].*$/, '').trim());
    return { ...Object.fromEntries(names.filter((name) => all[name] !== undefined).map((name) => [name, all[name]])), id: all.id };
  };

  for (const edge of ['published_posts', 'feed']) {
    router.get(`${base}/:pageId/${edge}`, (ctx) => {
      const token = graph.authenticate(ctx);
      const pageId = ctx.params.pageId!;
      if (!token) return;
      if (token.pageId !== pageId) return graph.unknownObject(ctx, pageId);
      const p = graph.params(ctx);
      const since = timeParam(p.since);
      const until = timeParam(p.until);
      const listed = [...posts.values()]
        .filter((post) => post.pageId === pageId && feed.visible(post))
        .filter(
          (post) =>
            (since === undefined || post.createdAt >= Math.floor(since / 1000) * 1000) && (until === undefined || post.createdAt < until),
        )
        .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id));
      ctx.body = graph.list(
        ctx,
        listed.map((post) => pick(postView(post, ctx.origin), p.fields)),
        `${ctx.origin}${ctx.path}`,
      );
    });
  }

  router.get(`${base}/:pageId/videos`, (ctx) => {
    const token = graph.authenticate(ctx);
    if (!token) return;
    if (token.pageId !== ctx.params.pageId) return graph.unknownObject(ctx, ctx.params.pageId!);
    const list = [...videos.values()]
      .filter((video) => video.pageId === ctx.params.pageId && !video.post.deleted)
      .reverse()
      .map((video) => ({
        id: video.id,
        description: video.description ?? undefined,
        title: video.title ?? undefined,
        created_time: graphTime(video.post.createdAt),
      }));
    ctx.body = graph.list(ctx, list, `${ctx.origin}${ctx.path}`);
  });

  /** A video (its processing status; each read moves it on) or a post; anything else is the page's route. */
  router.get(`${base}/:id`, async (ctx, next) => {
    const id = ctx.params.id!;
    const video = videos.get(id);
    const post = posts.get(id);
    if (!video && !post) return next();
    const token = graph.authenticate(ctx);
    if (!token) return;
    if (token.pageId !== (video ?? post)!.pageId || post?.deleted || video?.post.deleted) return graph.unknownObject(ctx, id);
    if (post) return void (ctx.body = pick(postView(post, ctx.origin), graph.params(ctx).fields));
    if (video!.status === 'processing' && video!.readsUntilReady-- <= 0) video!.status = video!.failing ? 'error' : 'ready';
    const videoStatus = video!.status;
    ctx.body = pick(
      {
        id,
        description: video!.description ?? undefined,
        title: video!.title ?? undefined,
        post_id: videoStatus === 'ready' ? video!.post.id : undefined,
        permalink_url: `/${state.pages.get(video!.pageId)?.username}/videos/${id}/`,
        status: videoStatusView(videoStatus),
      },
      graph.params(ctx).fields,
    );
  });

  /**
   * A page post's text changed (`message`), as the Graph lets an app change the posts it made: `{success: true}`.
   * A post made in the app is not the app's to edit (#200); anything else (a comment) falls through.
   */
  router.post(`${base}/:id`, (ctx, next) => {
    const id = ctx.params.id!;
    const post = posts.get(id);
    if (!post) return next();
    const token = graph.authenticate(ctx);
    if (!token) return;
    if (post.deleted || token.pageId !== post.pageId) return graph.unknownObject(ctx, id);
    if (!state.granted(token, 'pages_manage_posts')) return graph.missingPermission(ctx, 'pages_manage_posts');
    if (post.madeInApp) return graph.fail(ctx, 403, 200, '(#200) App cannot edit non-app posts');
    const { message } = graph.params(ctx);
    if (message === undefined) return graph.fail(ctx, 400, 100, '(#100) The parameter message is required');
    post.message = message || null;
    ctx.body = { success: true };
  });

  /** A post or a video; anything else (a comment) falls through. */
  router.delete(`${base}/:id`, (ctx, next) => {
    const id = ctx.params.id!;
    const post = posts.get(id) ?? videos.get(id)?.post;
    if (!post) return next();
    const token = graph.authenticate(ctx);
    if (!token) return;
    if (post.deleted || token.pageId !== post.pageId) return graph.unknownObject(ctx, id);
    if (!state.granted(token, 'pages_manage_posts')) return graph.missingPermission(ctx, 'pages_manage_posts');
    post.deleted = true;
    ctx.body = { success: true };
  });

  const people = '/_sandbox/social_network';
  const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
  const noPage = (ctx: RouterContext) => {
    ctx.status = 404;
    ctx.body = { error: 'no such page' };
  };

  /** Someone posts on the page in the app (not through any API); reactions and shares are what people did since. */
  router.post(`${people}/page-posts`, (ctx) => {
    const input = body(ctx) as { pageId?: string; message?: string; reactions?: number; shares?: number; comments?: string[] };
    if (!state.pages.has(String(input.pageId))) return noPage(ctx);
    const post = feed.newPost(String(input.pageId), {
      message: input.message ?? null,
      madeInApp: true,
      reactions: input.reactions ?? 0,
      shares: input.shares ?? 0,
    });
    for (const message of input.comments ?? [])
      post.comments.push({ id: `${post.id.split('_')[1]}_${state.newId()}`, message, fromPage: false, createdAt: Date.now() });
    ctx.status = 201;
    ctx.body = postView(post, ctx.origin);
  });

  /** Everything on a page, deleted posts and unprocessed videos too, for tests to look at. */
  router.get(`${people}/page-posts`, (ctx) => {
    const pageId = String(ctx.query.pageId ?? '');
    if (!state.pages.has(pageId)) return noPage(ctx);
    ctx.body = {
      posts: [...posts.values()].filter((post) => post.pageId === pageId).reverse(),
      videos: [...videos.values()].filter((video) => video.pageId === pageId).map(({ post, ...video }) => ({ ...video, postId: post.id })),
      photosUploaded: [...photos.values()].filter((photo) => photo.pageId === pageId).length,
      unpublishedPhotos: [...photos.values()].filter((photo) => photo.pageId === pageId && !photo.postId).length,
    };
  });

  router.post(`${people}/post-faults`, (ctx) => {
    const input = body(ctx) as { pageId?: string; faults?: PostFault[] };
    if (!state.pages.has(String(input.pageId))) return noPage(ctx);
    ctx.body = { faults: feed.addFaults(String(input.pageId), input.faults ?? []) };
  });

  return { state: () => feed.kept() };
}
