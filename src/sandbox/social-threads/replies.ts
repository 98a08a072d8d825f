import { createHmac } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { verifyCallback } from '../meta-callback.js';
import { SANDBOX_THREADS_APP } from './demo.js';
import { shortcodeOf, type ThreadsReplyTarget, type ThreadsSandboxAuth } from './posting.js';

/** A reply under a thread: by the thread's author (published through the API) or by a person in the app. */
interface Reply {
  id: string;
  rootId: string;
  repliedToId: string;
  /** The author's user id, when they are one of the sandbox's people (the profiles that connect apps). */
  authorId: string | null;
  username: string;
  text: string | null;
  timestamp: string;
  hidden: boolean;
  deleted: boolean;
}

/** What the replies keep across a restart. */
export interface ThreadsRepliesState {
  replies: Map<string, Reply>;
  nextId: bigint;
  /** The app dashboard's webhook: where the `replies` field is sent. */
  webhook?: { callbackUrl: string } | null;
}

const graphTime = () => new Date().toISOString().replace(/\.\d+Z$/, '+0000');

/**
 * Replies to threads over the Threads API: `/{media}/replies` (direct ones), `/{thread}/conversation` (every
 * depth), a reply read by id, `/{reply}/manage_reply` (the thread's author hides or shows others' replies) and
 * `DELETE /{reply}` (its author only). Replies written through the API come from publishing (`reply_to_id`).
 * People's control: a person replies in the app.
 */
export function mountThreadsReplies(
  router: Router,
  auth: ThreadsSandboxAuth,
  threadOf: (id: string) => { id: string; userId: string } | undefined,
  restored?: ThreadsRepliesState,
): { target: ThreadsReplyTarget; state(): ThreadsRepliesState } {
  const replies = restored?.replies ?? new Map<string, Reply>();
  let nextId = restored?.nextId ?? 18_900_000_000_000_001n;
  let webhook = restored?.webhook ?? null;
  const base = '/social_threads/graph/:version';

  const ownerOf = (reply: Reply) => threadOf(reply.rootId)?.userId;
  const add = (reply: Omit<Reply, 'rootId' | 'timestamp' | 'hidden' | 'deleted'>): Reply => {
    const parent = replies.get(reply.repliedToId);
    const made: Reply = {
      ...reply,
      rootId: parent ? parent.rootId : reply.repliedToId,
      timestamp: graphTime(),
      hidden: false,
      deleted: false,
    };
    replies.set(made.id, made);
    return made;
  };
  const view = (reply: Reply, fields: string[], viewerId: string): Record<string, unknown> => {
    const all: Record<string, unknown> = {
      id: reply.id,
      text: reply.text ?? undefined,
      username: reply.username,
      timestamp: reply.timestamp,
      permalink: `https://www.threads.net/@${reply.username}/post/${shortcodeOf(reply.id)}`,
      media_type: 'TEXT_POST',
      media_product_type: 'THREADS',
      hide_status: reply.hidden ? 'HIDDEN' : 'NOT_HUSHED',
      replied_to: { id: reply.repliedToId },
      root_post: { id: reply.rootId },
      is_reply: true,
      is_reply_owned_by_me: reply.authorId === viewerId,
    };
    return Object.fromEntries(['id', ...fields].filter((f) => all[f] !== undefined).map((f) => [f, all[f]]));
  };
  const fieldsOf = (ctx: RouterContext) => (auth.params(ctx).fields ?? 'id').split(',').map((f) => f.trim());
  const notFound = (ctx: RouterContext, id: string) =>
    auth.fail(
      ctx,
      100,
      `Unsupported request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
      33,
    );
  /** A page of a list, `{data, paging}` with opaque cursors, as the publishing list pages. */
  const pageOf = (ctx: RouterContext, items: Array<Record<string, unknown>>) => {
    const p = auth.params(ctx);
    const limit = Math.min(Number(p.limit) || 25, 100);
    const start = p.after ? Number(Buffer.from(p.after, 'base64url').toString()) || 0 : 0;
    const data = items.slice(start, start + limit);
    const cursor = (n: number) => Buffer.from(String(n)).toString('base64url');
    return {
      data,
      paging: {
        cursors: { before: cursor(start), after: cursor(start + data.length) },
        ...(start + limit < items.length ? { next: `https://graph.threads.example/next?after=${cursor(start + limit)}` } : {}),
      },
    };
  };
  /** Newest first unless `reverse=false`. */
  const ordered = (ctx: RouterContext, list: Reply[]) => {
    const oldestFirst = [...list].sort((a, b) => a.timestamp.localeCompare(b.timestamp) || a.id.localeCompare(b.id));
    return auth.params(ctx).reverse === 'false' ? oldestFirst : oldestFirst.reverse();
  };

  for (const edge of ['replies', 'conversation'] as const) {
    router.get(`${base}/:id/${edge}`, (ctx) => {
      const token = auth.authenticate(ctx);
      if (!token) return;
      const id = ctx.params.id!;
      const reply = replies.get(id);
      const root = threadOf(reply?.rootId ?? id);
      if (!root || (reply && reply.deleted) || (edge === 'conversation' && reply)) return notFound(ctx, id);
      if (!token.scopes.includes('threads_read_replies')) return auth.fail(ctx, 10, 'Application does not have permission for this action');
      const listed = [...replies.values()].filter((r) => !r.deleted && (edge === 'replies' ? r.repliedToId === id : r.rootId === id));
      ctx.body = pageOf(
        ctx,
        ordered(ctx, listed).map((r) => view(r, fieldsOf(ctx), token.userId)),
      );
    });
  }

  router.post(`${base}/:id/manage_reply`, (ctx) => {
    const token = auth.authenticate(ctx);
    if (!token) return;
    const reply = replies.get(ctx.params.id!);
    if (!reply || reply.deleted || ownerOf(reply) !== token.userId) return notFound(ctx, ctx.params.id!);
    if (!token.scopes.includes('threads_manage_replies')) return auth.fail(ctx, 10, 'Application does not have permission for this action');
    const hide = auth.params(ctx).hide;
    if (hide !== 'true' && hide !== 'false') return auth.fail(ctx, 100, '(#100) Param hide must be a boolean.');
    if (reply.authorId === token.userId) return auth.fail(ctx, 100, '(#100) You cannot hide your own reply.');
    reply.hidden = hide === 'true';
    ctx.body = { success: true };
  });

  router.get(`${base}/:id`, (ctx, next) => {
    const reply = replies.get(ctx.params.id!);
    if (!reply) return next();
    const token = auth.authenticate(ctx);
    if (!token) return;
    if (reply.deleted) return notFound(ctx, reply.id);
    ctx.body = view(reply, fieldsOf(ctx), token.userId);
  });

  /** Only a reply's author deletes it (the thread's author may hide it instead). */
  router.delete(`${base}/:id`, (ctx, next) => {
    const reply = replies.get(ctx.params.id!);
    if (!reply) return next();
    const token = auth.authenticate(ctx);
    if (!token) return;
    if (reply.deleted) return notFound(ctx, reply.id);
    if (!token.scopes.includes('threads_delete')) return auth.fail(ctx, 10, 'Application does not have permission for this action');
    if (reply.authorId !== token.userId) return auth.fail(ctx, 100, '(#100) Only the author of a reply can delete it.');
    reply.deleted = true;
    ctx.body = { success: true, deleted_id: reply.id };
  });

  /** The `replies` webhook of a new reply, signed with the app secret, to the dashboard's callback URL. */
  const sendReplyWebhook = async (reply: Reply): Promise<number | null> => {
    const root = threadOf(reply.rootId);
    if (!webhook || !root) return null;
    const raw = JSON.stringify({
      app_id: SANDBOX_THREADS_APP.id,
      topic: 'moderate',
      target_id: root.userId,
      time: Math.floor(Date.now() / 1000),
      subscription_id: '2000000000000301',
      has_uid_field: false,
      values: {
        field: 'replies',
        value: {
          ...view(reply, ['text', 'username', 'timestamp', 'permalink', 'media_type', 'replied_to'], ''),
          root_post: { id: root.id, owner_id: root.userId, username: auth.usernameOf(root.userId) },
          shortcode: shortcodeOf(reply.id),
        },
      },
    });
    const response = await fetch(webhook.callbackUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Hub-Signature-256': `sha256=${createHmac('sha256', SANDBOX_THREADS_APP.secret).update(raw).digest('hex')}`,
      },
      body: raw,
    });
    await response.arrayBuffer();
    return response.status;
  };

  /** The app's dashboard: the webhook's callback URL, checked with the handshake first. */
  router.post('/_sandbox/social_threads/webhooks', async (ctx) => {
    const input = (ctx.request.body ?? {}) as { callbackUrl?: string; verifyToken?: string };
    if (!input.callbackUrl || !input.verifyToken) return auth.fail(ctx, 100, 'callbackUrl and verifyToken are required');
    const problem = await verifyCallback(input.callbackUrl, input.verifyToken);
    if (problem) return auth.fail(ctx, 2200, `Callback verification failed: ${problem}`);
    webhook = { callbackUrl: input.callbackUrl };
    ctx.body = { webhook };
  });

  /** A person replies in the app to a thread or a reply; the webhook goes out (twice with `duplicate`). */
  router.post('/_sandbox/social_threads/replies', async (ctx) => {
    const input = (ctx.request.body ?? {}) as { replyToId?: string; username?: string; text?: string; duplicate?: boolean };
    const replyToId = String(input.replyToId ?? '');
    if (!threadOf(replyToId) && !replies.get(replyToId)) return auth.fail(ctx, 100, 'no such thread or reply');
    const reply = add({
      id: String(nextId++),
      repliedToId: replyToId,
      authorId: null,
      username: input.username ?? 'lena.fischer',
      text: input.text ?? 'Nice!',
    });
    const deliveries: Array<number | null> = [];
    for (let i = 0; i < (input.duplicate ? 2 : 1); i += 1) deliveries.push(await sendReplyWebhook(reply));
    ctx.status = 201;
    ctx.body = { ...view(reply, ['text', 'username', 'timestamp', 'replied_to', 'root_post', 'hide_status'], ''), deliveries };
  });
  /** Every reply under a thread, deleted and hidden ones too, for tests to look at. */
  router.get('/_sandbox/social_threads/replies', (ctx) => {
    const threadId = String(ctx.query.threadId ?? '');
    ctx.body = { replies: [...replies.values()].filter((r) => r.rootId === threadId) };
  });

  return {
    target: {
      exists: (id) => Boolean(replies.get(id) && !replies.get(id)!.deleted),
      publish: ({ id, userId, replyToId, text }) => {
        add({ id, repliedToId: replyToId, authorId: userId, username: auth.usernameOf(userId), text });
      },
    },
    state: () => ({ replies, nextId, webhook }),
  };
}
