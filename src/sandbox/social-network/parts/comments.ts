import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import type { PublicUrls } from '../../public-urls.js';
import { DEFAULT_COMMENTER, type PageComment, type PagePost } from '../feed.js';
import { graphTime } from '../graph.js';
import { defineSocialPart, type SocialNetwork } from '../part.js';
import { deliver, type Delivery } from '../people.js';
import type { Token } from '../state.js';

/**
 * What the comments control can make happen to a page's next comment changes: `lost_answer` (the next write on a
 * comment — a reply, a hide, a delete — is done, then the connection drops before the answer), `duplicate_webhooks`
 * (each `feed` webhook of the next change is sent twice), `hold_webhooks` (the next `count` webhooks are held,
 * then sent newest first: out of order).
 */
type CommentFault = { kind: 'lost_answer' } | { kind: 'duplicate_webhooks' } | { kind: 'hold_webhooks'; count: number };
type Verb = 'add' | 'edited' | 'remove' | 'hide' | 'unhide';

const PRIVATE_REPLY_DAYS = 7;

/** The platform fetches an attached photo from its URL: it must answer with an image. */
async function isImage(urls: PublicUrls, url: string): Promise<boolean> {
  const response = await urls.fetch(url, { signal: AbortSignal.timeout(10_000) });
  await response?.arrayBuffer().catch(() => {});
  return Boolean(response?.ok && /^image\//.test(response.headers.get('content-type') ?? ''));
}

/**
 * Comments on page posts over the Graph API: `GET|POST /{post-or-comment}/comments` (`filter=stream|toplevel`,
 * `order`), `GET /{comment}`, `POST /{comment}` (`is_hidden`), `DELETE /{comment}`, each comment with the
 * `can_*` fields the platform computes; every change sent as a signed `feed` webhook to the apps subscribed to
 * the page's feed. People's controls: a person comments, edits, removes; faults.
 */
export const commentsPart = defineSocialPart({ key: 'comments', mount: mountPageComments });

function mountPageComments(router: Router, { state, graph, feed, base, urls }: SocialNetwork): void {
  const faults = new Map<string, CommentFault[]>();
  const held = new Map<string, unknown[]>();

  const takeFault = (pageId: string, kind: CommentFault['kind']): CommentFault | undefined => {
    const list = faults.get(pageId) ?? [];
    const index = list.findIndex((fault) => fault.kind === kind);
    return index < 0 ? undefined : list.splice(index, 1)[0];
  };
  const authorOf = (post: PagePost, comment: PageComment) => {
    const page = state.pages.get(post.pageId)!;
    return comment.fromPage ? { id: page.id, name: page.name } : (comment.from ?? DEFAULT_COMMENTER);
  };
  const view = (post: PagePost, comment: PageComment) => {
    const fromPage = comment.fromPage;
    const replies = post.comments.filter((c) => c.parentId === comment.id && !c.deleted).length;
    const page = state.pages.get(post.pageId)!;
    return {
      id: comment.id,
      message: comment.message,
      from: authorOf(post, comment),
      created_time: graphTime(comment.createdAt),
      is_hidden: comment.hidden ?? false,
      ...(comment.parentId ? { parent: { id: comment.parentId } } : {}),
      ...(comment.attachmentUrl ? { attachment: { type: 'photo', media: { image: { src: comment.attachmentUrl } } } } : {}),
      like_count: 0,
      comment_count: replies,
      permalink_url: `https://social.example/${page.username}/posts/${post.id.split('_')[1]}?comment_id=${comment.id.split('_')[1]}`,
      can_hide: !fromPage,
      can_remove: true,
      can_comment: true,
      can_reply_privately: !fromPage && Date.now() - comment.createdAt < PRIVATE_REPLY_DAYS * 24 * 3600 * 1000,
    };
  };

  /** A comment goes, and its replies with it. */
  const removeWithReplies = (post: PagePost, comment: PageComment) => {
    for (const gone of post.comments.filter((c) => c.id === comment.id || c.parentId === comment.id)) gone.deleted = true;
  };

  /** The page's `feed` webhook of one change, to each app subscribed to the feed at the page and the app. */
  const sendFeed = async (post: PagePost, comment: PageComment, verb: Verb): Promise<Delivery[]> => {
    const now = Math.floor(Date.now() / 1000);
    const payload = {
      object: 'page',
      entry: [
        {
          id: post.pageId,
          time: now,
          changes: [
            {
              field: 'feed',
              value: {
                from: authorOf(post, comment),
                post: { id: post.id, status_type: 'mobile_status_update', is_published: true },
                post_id: post.id,
                comment_id: comment.id,
                parent_id: comment.parentId ?? post.id,
                created_time: Math.floor(comment.createdAt / 1000),
                item: 'comment',
                verb,
                ...(verb === 'add' || verb === 'edited' ? { message: comment.message } : {}),
              },
            },
          ],
        },
      ],
    };
    const hold = (faults.get(post.pageId) ?? []).find((fault) => fault.kind === 'hold_webhooks');
    if (hold?.kind === 'hold_webhooks') {
      const waiting = [...(held.get(post.pageId) ?? []), payload];
      if (waiting.length < hold.count) {
        held.set(post.pageId, waiting);
        return [];
      }
      held.delete(post.pageId);
      takeFault(post.pageId, 'hold_webhooks');
      const deliveries: Delivery[] = [];
      for (const one of waiting.reverse()) deliveries.push(...(await deliverToSubscribers(post.pageId, one)));
      return deliveries;
    }
    const times = takeFault(post.pageId, 'duplicate_webhooks') ? 2 : 1;
    const deliveries: Delivery[] = [];
    for (let i = 0; i < times; i += 1) deliveries.push(...(await deliverToSubscribers(post.pageId, payload)));
    return deliveries;
  };
  const deliverToSubscribers = async (pageId: string, payload: unknown): Promise<Delivery[]> => {
    const deliveries: Delivery[] = [];
    for (const [appId, fields] of state.pages.get(pageId)?.subscribedApps ?? []) {
      const app = state.apps.get(appId)!;
      const subscription = app.subscriptions.get('page');
      if (!fields.includes('feed') || !subscription?.fields.includes('feed')) continue;
      deliveries.push(await deliver(app, subscription.callbackUrl, payload));
    }
    return deliveries;
  };
  /** The platform tells the apps after it answered the call, as Meta does. */
  const sendFeedLater = (post: PagePost, comment: PageComment, verb: Verb) => {
    setImmediate(() => void sendFeed(post, comment, verb).catch(() => {}));
  };
  /** The write is done; the answer is lost when the page's next write was set to lose it. */
  const answer = (ctx: RouterContext, pageId: string, body: unknown) => {
    if (takeFault(pageId, 'lost_answer')) {
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    ctx.body = body;
  };

  /** A post or a comment of the token's page, shown; else the Graph's refusal is written and null returned. */
  const target = (ctx: RouterContext, token: Token): { post: PagePost; comment: PageComment | null } | null => {
    const id = ctx.params.id!;
    const post = feed.posts.get(id);
    if (post && feed.visible(post) && token.pageId === post.pageId) return { post, comment: null };
    const found = feed.findComment(id);
    if (found && !found.comment.deleted && feed.visible(found.post) && token.pageId === found.post.pageId) return found;
    graph.unknownObject(ctx, id);
    return null;
  };

  router.get(`${base}/:id/comments`, (ctx) => {
    const token = graph.authenticate(ctx);
    if (!token) return;
    const on = target(ctx, token);
    if (!on) return;
    const p = graph.params(ctx);
    const listed = on.post.comments.filter(
      (c) => !c.deleted && (on.comment ? c.parentId === on.comment.id : p.filter === 'stream' || !c.parentId),
    );
    if (p.order === 'reverse_chronological') listed.reverse();
    const views = listed.map((c) => graph.pick(view(on.post, c), p.fields, 'id,message,from,created_time'));
    ctx.body = graph.list(ctx, views, `${ctx.origin}${ctx.path}`);
  });

  router.post(`${base}/:id/comments`, async (ctx) => {
    const token = graph.authenticate(ctx);
    if (!token) return;
    const on = target(ctx, token);
    if (!on) return;
    if (!state.granted(token, 'pages_manage_engagement')) return graph.missingPermission(ctx, 'pages_manage_engagement');
    const failing = feed.takeFault(on.post.pageId, ['comment_fails']);
    if (failing?.kind === 'comment_fails') {
      const code = failing.code ?? 1;
      return graph.fail(
        ctx,
        code === 1 ? 500 : 400,
        code,
        code === 1 ? 'An unknown error has occurred.' : `(#${code}) The comment could not be posted.`,
        { type: code === 1 ? 'FacebookApiException' : 'OAuthException' },
      );
    }
    const { message, attachment_url: attachmentUrl } = graph.params(ctx);
    if (!message) return graph.fail(ctx, 400, 100, '(#100) Missing message');
    if (attachmentUrl && !(await isImage(urls, attachmentUrl))) return graph.fail(ctx, 400, 324, '(#324) Missing or invalid image file');
    // Replies are one level deep: a reply to a reply answers its comment.
    const parentId = on.comment ? (on.comment.parentId ?? on.comment.id) : null;
    const comment: PageComment = {
      id: `${on.post.id.split('_')[1]}_${state.newId()}`,
      message,
      fromPage: true,
      createdAt: Date.now(),
      parentId,
      ...(attachmentUrl ? { attachmentUrl } : {}),
    };
    on.post.comments.push(comment);
    sendFeedLater(on.post, comment, 'add');
    answer(ctx, on.post.pageId, { id: comment.id });
  });

  /** A comment (`fields`), or the post's or page's route. */
  router.get(`${base}/:id`, (ctx, next) => {
    const found = feed.findComment(ctx.params.id!);
    if (!found) return next();
    const token = graph.authenticate(ctx);
    if (!token) return;
    if (found.comment.deleted || token.pageId !== found.post.pageId) return graph.unknownObject(ctx, ctx.params.id!);
    ctx.body = graph.pick(view(found.post, found.comment), graph.params(ctx).fields, 'id,message,from,created_time');
  });

  /** Hides or shows a comment: others' only, a page cannot hide its own. */
  router.post(`${base}/:id`, (ctx, next) => {
    const found = feed.findComment(ctx.params.id!);
    if (!found) return next();
    const token = graph.authenticate(ctx);
    if (!token) return;
    const { post, comment } = found;
    if (comment.deleted || token.pageId !== post.pageId) return graph.unknownObject(ctx, ctx.params.id!);
    if (!state.granted(token, 'pages_manage_engagement')) return graph.missingPermission(ctx, 'pages_manage_engagement');
    const p = graph.params(ctx);
    if (p.is_hidden !== 'true' && p.is_hidden !== 'false') return graph.fail(ctx, 400, 100, '(#100) Param is_hidden must be a boolean');
    if (comment.fromPage) return graph.fail(ctx, 400, 100, '(#100) A page cannot hide its own comment.');
    const hidden = p.is_hidden === 'true';
    if ((comment.hidden ?? false) !== hidden) {
      comment.hidden = hidden;
      sendFeedLater(post, comment, hidden ? 'hide' : 'unhide');
    }
    answer(ctx, post.pageId, { success: true });
  });

  /** Deletes a comment (and its replies); the last route of `DELETE /{id}`, so an unknown id ends here. */
  router.delete(`${base}/:id`, (ctx) => {
    const token = graph.authenticate(ctx);
    if (!token) return;
    const found = feed.findComment(ctx.params.id!);
    if (!found || found.comment.deleted || token.pageId !== found.post.pageId) return graph.unknownObject(ctx, ctx.params.id!);
    if (!state.granted(token, 'pages_manage_engagement')) return graph.missingPermission(ctx, 'pages_manage_engagement');
    const { post, comment } = found;
    removeWithReplies(post, comment);
    sendFeedLater(post, comment, 'remove');
    answer(ctx, post.pageId, { success: true });
  });

  const people = '/_sandbox/social_network';
  const body = (ctx: RouterContext) => (ctx.request.body ?? {}) as Record<string, unknown>;
  const refuse = (ctx: RouterContext, status: number, error: string) => {
    ctx.status = status;
    ctx.body = { error };
  };

  /** A person comments on a post of the page (or answers a comment, `parentId`): the `feed` webhook goes out. */
  router.post(`${people}/comments`, async (ctx) => {
    const input = body(ctx) as { postId?: string; parentId?: string; from?: { id: string; name: string }; text?: string };
    const post = feed.posts.get(String(input.postId ?? ''));
    if (!post || !feed.visible(post)) return refuse(ctx, 404, 'no such post');
    const parent = input.parentId ? post.comments.find((c) => c.id === input.parentId && !c.deleted) : undefined;
    if (input.parentId && !parent) return refuse(ctx, 404, 'no such comment on the post');
    const comment: PageComment = {
      id: `${post.id.split('_')[1]}_${state.newId()}`,
      message: input.text ?? 'Nice!',
      fromPage: false,
      from: input.from ?? DEFAULT_COMMENTER,
      createdAt: Date.now(),
      parentId: parent ? (parent.parentId ?? parent.id) : null,
    };
    post.comments.push(comment);
    const deliveries = await sendFeed(post, comment, 'add');
    ctx.status = 201;
    ctx.body = { comment: view(post, comment), deliveries };
  });

  /** The person edits or removes their comment: the `feed` webhook goes out. */
  for (const change of ['edit', 'remove'] as const) {
    router.post(`${people}/comments/:commentId/${change}`, async (ctx) => {
      const found = feed.findComment(ctx.params.commentId!);
      if (!found || found.comment.deleted || found.comment.fromPage) return refuse(ctx, 404, 'no such comment by a person');
      const { post, comment } = found;
      if (change === 'edit') comment.message = String(body(ctx).text ?? comment.message);
      else removeWithReplies(post, comment);
      const deliveries = await sendFeed(post, comment, change === 'edit' ? 'edited' : 'remove');
      ctx.body = { comment: view(post, comment), deliveries };
    });
  }

  router.post(`${people}/comment-faults`, (ctx) => {
    const input = body(ctx) as { pageId?: string; faults?: CommentFault[] };
    if (!state.pages.has(String(input.pageId))) return refuse(ctx, 404, 'no such page');
    faults.set(String(input.pageId), [...(faults.get(String(input.pageId)) ?? []), ...(input.faults ?? [])]);
    ctx.body = { faults: faults.get(String(input.pageId)) };
  });
}
