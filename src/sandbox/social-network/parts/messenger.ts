import type Router from '@koa/router';
import { randomBytes } from 'node:crypto';
import type { RouterContext } from '@koa/router';
import type { CommentAuthor } from '../feed.js';
import { defineSocialPart, type SocialNetwork } from '../part.js';
import { deliver } from '../people.js';
import type { Page, SocialState } from '../state.js';

const DAY = 24 * 3600 * 1000;
/** Tags that allow a message outside the 24-hour window, and for how long after the person's last message. */
const TAG_WINDOWS: Record<string, number> = {
  CONFIRMED_EVENT_UPDATE: Infinity,
  POST_PURCHASE_UPDATE: Infinity,
  ACCOUNT_UPDATE: Infinity,
  HUMAN_AGENT: 7 * DAY,
};
const TEXT_LIMIT = 2000;

/** A message a page sent, as the sandbox keeps it and shows it at `/_sandbox/social_network/messenger/sent`. */
export interface SentMessage {
  pageId: string;
  psid: string;
  mid: string;
  text: string | null;
  attachment: { type: string; url: string } | null;
  tag: string | null;
  commentId: string | null;
  at: number;
}

export interface MessengerState {
  /** `<page>:<psid>` → when the person last wrote to the page. */
  lastWrote: Map<string, number>;
  comments: Map<string, CommentAuthor>;
  repliedComments: Set<string>;
  sent: SentMessage[];
}

/**
 * Messenger's Send API (`POST /{page-id}/messages`) with its rules: a free-form message only within 24 hours of the
 * person's last message (`(#10)`, subcode 2018278, outside it), message tags (`HUMAN_AGENT` for 7 days, the others
 * at any time), private replies to comments (`recipient: {comment_id}`: one per comment, 10900 for a second, within
 * 7 days, 10903 after), attachments by URL, one per message. Delivery and read receipts are sent on request.
 * Faults: the Graph's `fail-next` (throttling, an expired token), and `lose-next` (the message is stored and the
 * connection drops before the answer).
 */
export const messengerPart = defineSocialPart<MessengerState>({ key: 'messenger', mount: mountMessenger });

function mountMessenger(
  router: Router,
  { state, graph, feed, base, urls }: SocialNetwork,
  restored: MessengerState | undefined,
): { state(): MessengerState } {
  const lastWrote = restored?.lastWrote ?? new Map<string, number>();
  const comments = restored?.comments ?? new Map<string, CommentAuthor>();
  const repliedComments = restored?.repliedComments ?? new Set<string>();
  const sent = restored?.sent ?? [];
  let loseNext = false;

  router.post(`${base}/:id/messages`, async (ctx) => {
    const token = graph.authenticate(ctx);
    if (!token) return;
    const page = state.pages.get(ctx.params.id!);
    if (!page || token.kind !== 'page' || token.pageId !== page.id) return graph.unknownObject(ctx, ctx.params.id!);
    const body = jsonParams(ctx);
    const recipient = body.recipient as { id?: string; comment_id?: string } | undefined;
    const message = body.message as { text?: string; attachment?: { type?: string; payload?: { url?: string } } } | undefined;
    if (!recipient || (!recipient.id && !recipient.comment_id))
      return graph.fail(ctx, 400, 100, '(#100) param recipient must be non-empty.');
    if (!message || (!message.text && !message.attachment)) return graph.fail(ctx, 400, 100, '(#100) Must send either message or state');
    if (message.text && message.text.length > TEXT_LIMIT)
      return graph.fail(ctx, 400, 100, `(#100) Length of param message[text] must be less than or equal to ${TEXT_LIMIT}`);
    let psid: string;
    const now = Date.now();
    if (recipient.comment_id) {
      const comment = comments.get(recipient.comment_id) ?? feed.personComment(recipient.comment_id);
      if (!comment || comment.pageId !== page.id) return graph.unknownObject(ctx, recipient.comment_id);
      if (repliedComments.has(recipient.comment_id)) return graph.fail(ctx, 400, 10900, 'Activity already replied to');
      if (now - comment.at > 7 * DAY) return graph.fail(ctx, 400, 10903, "This activity can't be replied to");
      psid = comment.psid;
    } else {
      psid = recipient.id!;
      const wrote = lastWrote.get(`${page.id}:${psid}`);
      if (wrote === undefined) return graph.fail(ctx, 400, 100, '(#100) No matching user found', { subcode: 2018001 });
      const tag = body.messaging_type === 'MESSAGE_TAG' ? String(body.tag ?? '') : null;
      if (tag !== null && TAG_WINDOWS[tag] === undefined)
        return graph.fail(ctx, 400, 100, `(#100) Param tag must be one of {${Object.keys(TAG_WINDOWS).join(', ')}}`);
      const window = tag === null ? DAY : TAG_WINDOWS[tag]!;
      if (now - wrote > window)
        return graph.fail(ctx, 400, 10, '(#10) This message is sent outside of allowed window.', { subcode: 2018278 });
    }
    let attachment: SentMessage['attachment'] = null;
    if (message.attachment) {
      const url = String(message.attachment.payload?.url ?? '');
      const fetched = await urls.fetch(url);
      if (!fetched?.ok) return graph.fail(ctx, 400, 100, '(#100) Failed to fetch the file from the url', { subcode: 2018008 });
      await fetched.arrayBuffer();
      attachment = { type: String(message.attachment.type ?? 'file'), url };
    }
    const mid = `m_${randomBytes(18).toString('base64url')}`;
    sent.push({
      pageId: page.id,
      psid,
      mid,
      text: message.text ?? null,
      attachment,
      tag: body.messaging_type === 'MESSAGE_TAG' ? String(body.tag) : null,
      commentId: recipient.comment_id ?? null,
      at: now,
    });
    if (recipient.comment_id) repliedComments.add(recipient.comment_id);
    if (loseNext) {
      loseNext = false;
      ctx.req.socket.destroy();
      return;
    }
    ctx.body = { recipient_id: psid, message_id: mid };
  });

  /** A person writes to a page: each app subscribed to the page's `messages` gets the Messenger webhook. */
  router.post('/_sandbox/social_network/messages', async (ctx) => {
    const input = (ctx.request.body ?? {}) as { pageId?: string; from?: string; text?: string };
    const page = state.pages.get(String(input.pageId ?? ''));
    if (!page) return notFound(ctx, 'no such page');
    const from = String(input.from ?? '6543210987654321');
    const now = Date.now();
    const payload = messagingWebhook(page, now, {
      sender: { id: from },
      recipient: { id: page.id },
      timestamp: now,
      message: { mid: `m_${randomBytes(18).toString('base64url')}`, text: input.text ?? 'Hello!' },
    });
    const deliveries = await deliverToApps(state, page, payload);
    if (deliveries.length === 0) {
      ctx.status = 409;
      ctx.body = { error: "no app is subscribed to the page's messages" };
      return;
    }
    lastWrote.set(`${page.id}:${from}`, Date.now());
    ctx.body = { payload, deliveries, webhookStatus: deliveries[0]!.status };
  });

  /** A person sends the page files, a sticker or a place (Messenger attachments with CDN URLs), with an optional text. */
  router.post('/_sandbox/social_network/messenger/attachments', async (ctx) => {
    const input = (ctx.request.body ?? {}) as { pageId?: string; from?: string; text?: string; attachments?: unknown[] };
    const page = state.pages.get(String(input.pageId ?? ''));
    if (!page || !input.from) return notFound(ctx, 'no such page, or no from');
    const mid = `m_${randomBytes(18).toString('base64url')}`;
    const message = { mid, ...(input.text ? { text: input.text } : {}), attachments: input.attachments ?? [] };
    const deliveries = await deliverToApps(
      state,
      page,
      messagingWebhook(page, Date.now(), { sender: { id: input.from }, recipient: { id: page.id }, timestamp: Date.now(), message }),
    );
    lastWrote.set(`${page.id}:${input.from}`, Date.now());
    ctx.body = { mid, deliveries, webhookStatus: deliveries[0]?.status ?? null };
  });

  /** Time passes for a conversation: the person's last message is `hours` older. */
  router.post('/_sandbox/social_network/messenger/age', (ctx) => {
    const input = (ctx.request.body ?? {}) as { pageId?: string; psid?: string; hours?: number };
    const key = `${input.pageId}:${input.psid}`;
    const wrote = lastWrote.get(key);
    if (wrote === undefined) return notFound(ctx, 'the person never wrote to the page');
    lastWrote.set(key, wrote - Number(input.hours ?? 0) * 3600 * 1000);
    ctx.body = { lastWrote: new Date(lastWrote.get(key)!).toISOString() };
  });

  /** A person's comment on one of the page's posts, `ageDays` old, that the page may answer privately. */
  router.post('/_sandbox/social_network/messenger/comments', (ctx) => {
    const input = (ctx.request.body ?? {}) as { pageId?: string; psid?: string; ageDays?: number };
    const page = state.pages.get(String(input.pageId ?? ''));
    if (!page || !input.psid) return notFound(ctx, 'no such page, or no psid');
    const commentId = `${page.id}_${Date.now()}${randomBytes(3).readUIntBE(0, 3)}`;
    comments.set(commentId, { pageId: page.id, psid: input.psid, at: Date.now() - Number(input.ageDays ?? 0) * DAY });
    ctx.status = 201;
    ctx.body = { commentId };
  });

  router.post('/_sandbox/social_network/messenger/lose-next', (ctx) => {
    loseNext = true;
    ctx.body = { losing: true };
  });

  router.get('/_sandbox/social_network/messenger/sent', (ctx) => {
    ctx.body = { messages: sent.filter((m) => m.pageId === String(ctx.query.pageId ?? '')) };
  });

  /** The person's app reports the page's messages to them delivered (`delivery`: their mids) or read (`read`: a watermark). */
  router.post('/_sandbox/social_network/messenger/receipts', async (ctx) => {
    const input = (ctx.request.body ?? {}) as { pageId?: string; psid?: string; kind?: 'delivery' | 'read' };
    const page = state.pages.get(String(input.pageId ?? ''));
    if (!page || !input.psid) return notFound(ctx, 'no such page, or no psid');
    const mine = sent.filter((m) => m.pageId === page.id && m.psid === input.psid);
    const watermark = Date.now();
    const receipt = input.kind === 'read' ? { read: { watermark } } : { delivery: { mids: mine.map((m) => m.mid), watermark } };
    ctx.body = {
      deliveries: await deliverToApps(
        state,
        page,
        messagingWebhook(page, Date.now(), { sender: { id: input.psid }, recipient: { id: page.id }, timestamp: Date.now(), ...receipt }),
      ),
    };
  });

  return { state: () => ({ lastWrote, comments, repliedComments, sent }) };
}

/** The page's webhook of one Messenger event. */
function messagingWebhook(page: Page, time: number, event: Record<string, unknown>) {
  return { object: 'page', entry: [{ id: page.id, time, messaging: [event] }] };
}

/** A Messenger webhook to each app subscribed to the page's `messages`, at both the page and the app level. */
async function deliverToApps(state: SocialState, page: Page, payload: unknown) {
  const deliveries = [];
  for (const [appId, fields] of page.subscribedApps) {
    const app = state.apps.get(appId)!;
    const subscription = app.subscriptions.get('page');
    if (!fields.includes('messages') || !subscription?.fields.includes('messages')) continue;
    deliveries.push(await deliver(app, subscription.callbackUrl, payload));
  }
  return deliveries;
}

/** The Send API takes JSON members, or form fields holding JSON. */
function jsonParams(ctx: RouterContext): Record<string, unknown> {
  const body = (ctx.request.body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(body).map(([name, value]) => {
      if (typeof value !== 'string' || !/^[[{]/.test(value)) return [name, value];
      try {
        return [name, JSON.parse(value) as unknown];
      } catch {
        return [name, value];
      }
    }),
  );
}

function notFound(ctx: RouterContext, error: string): void {
  ctx.status = 404;
  ctx.body = { error };
}
