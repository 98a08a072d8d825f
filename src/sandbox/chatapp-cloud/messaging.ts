import { randomBytes } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { sha256Hex } from '../../lib/crypto.js';
import type { PublicUrls } from '../public-urls.js';
import type { CloudState, PhoneNumber, Token } from './state.js';
import { deliverChange } from './webhook.js';

const DAY = 24 * 3600 * 1000;
/** How long after its 200 the platform reports a message it could not deliver. */
const LATE_FAILURE_MS = 400;

export interface Template {
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED';
  category: 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
  components: Array<{ type: 'HEADER' | 'BODY' | 'FOOTER' | 'BUTTONS'; format?: string; text?: string; buttons?: unknown[] }>;
}

/** Every business account has these, as a new one on the platform has `hello_world`. */
const STANDARD_TEMPLATES: Template[] = [
  { name: 'hello_world', language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hello World' }] },
  {
    name: 'order_shipped',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [
      { type: 'BODY', text: 'Hi {{1}}, your order {{2}} is on its way.' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Track it' }] },
    ],
  },
  { name: 'spring_sale', language: 'en_US', status: 'PENDING', category: 'MARKETING', components: [{ type: 'BODY', text: '{{1}} off!' }] },
];

interface Sent {
  phoneNumberId: string;
  to: string;
  wamid: string;
  type: string;
  content: unknown;
  at: number;
}

/** `status_first`: the status webhook goes out (and is answered) before the send's own answer, as it can on the platform. */
type Fault = { kind: 'throttled' } | { kind: 'lost_answer' } | { kind: 'status_first'; status: string };

/** A file a person sent, kept by the platform for the business to download. */
interface Media {
  numberId: string;
  mimeType: string;
  bytes: string;
}

export interface CloudMessagingState {
  media?: Map<string, Media>;
  /** The messages people sent each number (`{number}:{wamid}`), which the business may mark as read. */
  received?: Set<string>;
  lastWrote: Map<string, number>;
  templates: Map<string, Template[]>;
  undeliverable: Set<string>;
  sent: Sent[];
}

interface Helpers {
  sandboxUrl: string;
  /** The URLs the platform fetches media from (strict: only the internet's). */
  urls: PublicUrls;
  authenticate(ctx: RouterContext): Token | null;
  numberFor(ctx: RouterContext, token: Token): PhoneNumber | null;
  fail(ctx: RouterContext, status: number, code: number, message: string, extra?: { subcode?: number }): void;
}

const FREE_FORM = new Set(['text', 'image', 'document', 'audio', 'video', 'sticker', 'interactive', 'reaction', 'location']);
const MEDIA = new Set(['image', 'document', 'audio', 'video', 'sticker']);

/** `{{n}}` placeholders in a component's text. */
const placeholders = (text: string | undefined) => new Set(text?.match(/\{\{\d+\}\}/g) ?? []).size;

/**
 * Sending on the cloud API (`POST /{phone-number-id}/messages`) with its rules: free-form messages only within 24
 * hours of the person's last message — outside it the API answers 200 and a `failed` status with 131047 follows —
 * templates checked against the approved ones (132001 unknown or not approved, 132000 a parameter count that does
 * not match), media by `link` fetched, one per message. Templates are listed with
 * `GET /{waba-id}/message_templates`. Statuses (`sent`, `delivered`, `read`, `failed`) are sent on request, and
 * recipients can be made undeliverable (131026 after the 200). Faults: throttling (130429) and a lost answer.
 */
export function mountCloudMessaging(
  router: Router,
  state: CloudState,
  helpers: Helpers,
  restored?: CloudMessagingState,
): () => CloudMessagingState {
  const lastWrote = restored?.lastWrote ?? new Map<string, number>();
  const templates = restored?.templates ?? new Map<string, Template[]>();
  const undeliverable = restored?.undeliverable ?? new Set<string>();
  const sent = restored?.sent ?? [];
  const media = restored?.media ?? new Map<string, Media>();
  const received = restored?.received ?? new Set<string>();
  const faults = new Map<string, Fault[]>();
  const base = '/chatapp-cloud/:version';
  const templatesOf = (wabaId: string) => templates.get(wabaId) ?? STANDARD_TEMPLATES;

  const statusChange = (number: PhoneNumber, message: Sent, status: string, error?: { code: number; title: string }) =>
    deliverChange(state, number, {
      statuses: [
        {
          id: message.wamid,
          status,
          timestamp: String(Math.floor(Date.now() / 1000)),
          recipient_id: message.to,
          ...(error
            ? { errors: [{ code: error.code, title: error.title, message: error.title, error_data: { details: error.title } }] }
            : {}),
        },
      ],
    });

  router.post(`${base}/:id/messages`, async (ctx) => {
    const token = helpers.authenticate(ctx);
    const number = token && helpers.numberFor(ctx, token);
    if (!number) return;
    if (!token!.scopes.includes('whatsapp_business_messaging'))
      return helpers.fail(ctx, 403, 10, '(#10) Application does not have permission for this action');
    if (!number.registered) return helpers.fail(ctx, 400, 133010, 'Account not registered');
    const fault = faults.get(number.id)?.shift();
    if (fault?.kind === 'throttled')
      return helpers.fail(ctx, 400, 130429, '(#130429) Rate limit hit: Cloud API message throughput has been reached.');
    /** A cloud API message: `type` and the member it names (its content as the API takes it). */
    const body = (ctx.request.body ?? {}) as { messaging_product?: string; to?: string; type?: string } & Record<string, unknown>;
    if (body.status !== undefined) return markRead(ctx, number, body);
    const type = String(body.type ?? 'text');
    // `recipient`: a business-scoped user id, for people whose number the platform does not show.
    const recipient = body.to ?? (body.recipient as string | undefined);
    if (body.messaging_product !== 'whatsapp' || !recipient) return helpers.fail(ctx, 400, 100, '(#100) Invalid parameter');
    const content = body[type] as
      | {
          body?: string;
          link?: string;
          name?: string;
          language?: { code?: string };
          components?: Array<{ type?: string; parameters?: unknown[] }>;
        }
      | undefined;
    if (!content) return helpers.fail(ctx, 400, 100, `(#100) The parameter ${type} is required.`);
    if (type === 'text' && !content.body) return helpers.fail(ctx, 400, 100, "(#100) The parameter text['body'] is required.");
    if (MEDIA.has(type)) {
      const link = String(content.link ?? '');
      const fetched = await helpers.urls.fetch(link);
      if (!fetched?.ok) return helpers.fail(ctx, 400, 131053, 'Media upload error: the media could not be downloaded from the link.');
      await fetched.arrayBuffer();
    }
    if (type === 'template') {
      const template = templatesOf(number.wabaId).find(
        (t) => t.name === content.name && t.language === content.language?.code && t.status === 'APPROVED',
      );
      if (!template) return helpers.fail(ctx, 400, 132001, '(#132001) Template name does not exist in the translation');
      for (const component of template.components.filter((c) => c.type === 'BODY' || c.type === 'HEADER')) {
        const given = (content.components ?? []).find((c: { type?: string }) => c.type === component.type.toLowerCase());
        if ((given?.parameters?.length ?? 0) !== placeholders(component.text))
          return helpers.fail(ctx, 400, 132000, '(#132000) Number of parameters does not match the expected number of params');
      }
    }
    const to = String(recipient).replace(/^\+/, '');
    const message: Sent = {
      phoneNumberId: number.id,
      to,
      wamid: `wamid.${randomBytes(24).toString('base64url')}`,
      type,
      content,
      at: Date.now(),
    };
    sent.push(message);
    if (fault?.kind === 'lost_answer') {
      ctx.req.socket.destroy();
      return;
    }
    if (fault?.kind === 'status_first') await statusChange(number, message, fault.status);
    const contact = body.to ? { input: body.to, wa_id: to } : { input: recipient, user_id: to };
    // A template is accepted for sending (its delivery follows as statuses): the answer says so.
    const answered = type === 'template' ? { id: message.wamid, message_status: 'accepted' } : { id: message.wamid };
    ctx.body = { messaging_product: 'whatsapp', contacts: [contact], messages: [answered] };
    const wrote = lastWrote.get(`${number.id}:${to}`);
    const failure = undeliverable.has(`${number.id}:${to}`)
      ? { code: 131026, title: 'Message undeliverable' }
      : FREE_FORM.has(type) && (wrote === undefined || Date.now() - wrote > DAY)
        ? { code: 131047, title: 'Re-engagement message' }
        : null;
    if (failure) setTimeout(() => void statusChange(number, message, 'failed', failure).catch(() => {}), LATE_FAILURE_MS);
  });

  /** Marks a message a person sent the number as read (`status: "read"`, `message_id`): the person sees the blue ticks. */
  const markRead = (ctx: RouterContext, number: PhoneNumber, body: Record<string, unknown>) => {
    if (body.messaging_product !== 'whatsapp' || body.status !== 'read')
      return helpers.fail(ctx, 400, 100, '(#100) Param status must be one of {read}');
    if (!received.has(`${number.id}:${String(body.message_id)}`))
      return helpers.fail(ctx, 400, 100, '(#100) Invalid parameter: message_id is not a message this number received');
    ctx.body = { success: true };
  };

  /** A received file's short-lived URL (`GET /{media-id}`), for a token of the number's business. */
  router.get(`${base}/:id`, async (ctx, next) => {
    const file = media.get(ctx.params.id!);
    if (!file) return next();
    const token = helpers.authenticate(ctx);
    if (!token) return;
    if (!token.wabaIds.has(state.numbers.get(file.numberId)!.wabaId))
      return helpers.fail(ctx, 400, 100, 'Unsupported get request.', { subcode: 33 });
    const bytes = Buffer.from(file.bytes, 'base64');
    ctx.body = {
      messaging_product: 'whatsapp',
      url: `${helpers.sandboxUrl}/chatapp-cloud-media/${ctx.params.id}`,
      mime_type: file.mimeType,
      sha256: sha256Hex(bytes),
      file_size: bytes.length,
      id: ctx.params.id,
    };
  });

  // The media host: outside the API's `/{version}/…` paths, as the platform's CDN is.
  router.get('/chatapp-cloud-media/:mediaId', (ctx) => {
    const file = media.get(ctx.params.mediaId!);
    const token = state.tokens.get(ctx.get('Authorization').replace(/^Bearer /, ''));
    if (!file || !token || token.revoked) {
      // The CDN refuses a token that does not work (401) and answers 404 for a file it does not have.
      ctx.status = file ? 401 : 404;
      return;
    }
    ctx.type = file.mimeType;
    ctx.body = Buffer.from(file.bytes, 'base64');
  });

  router.get(`${base}/:id/message_templates`, (ctx) => {
    const token = helpers.authenticate(ctx);
    if (!token) return;
    const waba = state.wabas.get(ctx.params.id!);
    if (!waba || !token.wabaIds.has(waba.id))
      return helpers.fail(ctx, 400, 100, `Unsupported get request. Object with ID '${ctx.params.id}' does not exist.`, { subcode: 33 });
    const status = ctx.query.status ? String(ctx.query.status) : null;
    const all = templatesOf(waba.id).filter((t) => !status || t.status === status);
    const limit = Math.min(Number(ctx.query.limit ?? 25) || 25, 100);
    const start = ctx.query.after ? Number(Buffer.from(String(ctx.query.after), 'base64url').toString()) || 0 : 0;
    const data = all.slice(start, start + limit).map((t, i) => ({ id: String(9000 + start + i), ...t }));
    const after = Buffer.from(String(start + data.length)).toString('base64url');
    ctx.body = {
      data,
      paging: { cursors: { after }, ...(start + data.length < all.length ? { next: `${ctx.path}?after=${after}` } : {}) },
    };
  });

  // The people's side. Registered before the people's `messages` control, which then delivers the webhook.
  router.post('/_sandbox/chatapp-cloud/messages', async (ctx, next) => {
    await next();
    const input = (ctx.request.body ?? {}) as { phoneNumberId?: string; from?: string; userId?: string };
    const person = input.userId ?? String(input.from ?? '4915112345678').replace(/\D/g, '');
    if (ctx.status !== 200) return;
    lastWrote.set(`${input.phoneNumberId}:${person}`, Date.now());
    const { messages } = (ctx.body as { payload: { entry: Array<{ changes: Array<{ value: { messages: Array<{ id: string }> } }> }> } })
      .payload.entry[0]!.changes[0]!.value;
    for (const message of messages) received.add(`${input.phoneNumberId}:${message.id}`);
  });

  const people = '/_sandbox/chatapp-cloud';
  const body = (ctx: RouterContext) =>
    (ctx.request.body ?? {}) as {
      phoneNumberId?: string;
      from?: string;
      to?: string;
      hours?: number;
      wamid?: string;
      status?: string;
    } & Record<string, unknown>;
  const numberOf = (ctx: RouterContext) => state.numbers.get(String(body(ctx).phoneNumberId ?? ctx.query.phoneNumberId ?? ''));
  const missing = (ctx: RouterContext) => {
    ctx.status = 404;
    ctx.body = { error: 'no such phone number id, or message' };
  };

  /** Time passes: the person's last message to the number is `hours` older. */
  router.post(`${people}/age`, (ctx) => {
    const key = `${body(ctx).phoneNumberId}:${String(body(ctx).from ?? '').replace(/\D/g, '')}`;
    const wrote = lastWrote.get(key);
    if (wrote === undefined) return missing(ctx);
    lastWrote.set(key, wrote - Number(body(ctx).hours ?? 0) * 3600 * 1000);
    ctx.body = { ok: true };
  });

  /** The person's phone cannot receive messages (no app, blocked the business): the platform reports 131026 after its 200. */
  router.post(`${people}/undeliverable`, (ctx) => {
    const number = numberOf(ctx);
    if (!number) return missing(ctx);
    undeliverable.add(`${number.id}:${String(body(ctx).to ?? '').replace(/\D/g, '')}`);
    ctx.body = { ok: true };
  });

  /** A template of the business account, in any review state. */
  router.post(`${people}/templates`, (ctx) => {
    const input = body(ctx) as { wabaId?: string; template?: Template };
    if (!input.wabaId || !state.wabas.has(input.wabaId) || !input.template) return missing(ctx);
    templates.set(input.wabaId, [...templatesOf(input.wabaId), input.template]);
    ctx.status = 201;
    ctx.body = { ok: true };
  });

  /** The recipient's phone reports a status of a message (in any order, as often as asked: the platform does both). */
  router.post(`${people}/statuses`, async (ctx) => {
    const number = numberOf(ctx);
    const message = sent.find((m) => m.wamid === body(ctx).wamid);
    if (!number || !message) return missing(ctx);
    const error = body(ctx).error as { code: number; title: string } | undefined;
    ctx.body = await statusChange(number, message, String(body(ctx).status), error);
  });

  router.post(`${people}/faults`, (ctx) => {
    const number = numberOf(ctx);
    if (!number) return missing(ctx);
    faults.set(number.id, [...(faults.get(number.id) ?? []), ...((body(ctx).faults ?? []) as Fault[])]);
    ctx.body = { pending: faults.get(number.id)!.length };
  });

  router.get(`${people}/sent`, (ctx) => {
    ctx.body = { messages: sent.filter((m) => m.phoneNumberId === String(ctx.query.phoneNumberId ?? '')) };
  });

  /** A file a person sends: its media id, for the people's `messages` control to carry. */
  router.post(`${people}/media`, (ctx) => {
    const number = numberOf(ctx);
    if (!number) return missing(ctx);
    const id = String(9_000_000_000 + media.size);
    const mimeType = String(body(ctx).mimeType ?? 'image/jpeg');
    media.set(id, { numberId: number.id, mimeType, bytes: Buffer.from(`sandbox ${mimeType}`).toString('base64') });
    ctx.status = 201;
    ctx.body = { id, mimeType };
  });

  return () => ({ lastWrote, templates, undeliverable, sent, media, received });
}
