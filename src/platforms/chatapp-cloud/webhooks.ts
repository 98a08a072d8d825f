import { createHmac } from 'node:crypto';
import { constantTimeEqual, sha256Hex } from '../../lib/crypto.js';
import type {
  IncomingAttachment,
  IncomingEvent,
  IncomingRequest,
  MessageStatusUpdate,
  WebhookAccounts,
  WebhookReceiver,
  WebhookSource,
} from '../capabilities/webhooks.js';
import { placeAttachment } from '../capabilities/webhooks.js';
import type { MessageKind } from '../capabilities/messaging.js';
import { jsonObject } from '../json-body.js';

/** The cloud API's webhook body (only what we read of it). */
interface Notification {
  object?: string;
  entry?: Array<{ id?: string; changes?: Array<{ field?: string; value?: ChangeValue }> }>;
}
interface ChangeValue {
  metadata?: { phone_number_id?: string; display_phone_number?: string };
  /** `user_id`: the business-scoped user id (BSUID); a person who hides their number has only that, no `wa_id`. */
  contacts?: Array<{ wa_id?: string; user_id?: string; profile?: { name?: string } }>;
  messages?: CloudMessage[];
  statuses?: CloudStatus[];
}
interface CloudStatus {
  id?: string;
  status?: string;
  timestamp?: string;
  recipient_id?: string;
  errors?: Array<{ code?: number; title?: string; message?: string }>;
}
interface CloudMessage {
  /** The sender's number; absent for a person known only by their business-scoped id (`from_user_id`). */
  from?: string;
  from_user_id?: string;
  id: string;
  timestamp?: string;
  type?: string;
  text?: { body?: string };
  button?: { text?: string };
  interactive?: { button_reply?: { title?: string }; list_reply?: { title?: string } };
  [media: string]: unknown;
}

const SIGNATURE_HEADER = 'x-hub-signature-256';
const MEDIA_TYPES = ['image', 'video', 'document', 'audio', 'sticker'];

function changesOf(notification: Notification): ChangeValue[] {
  return (notification.entry ?? [])
    .flatMap((entry) => entry.changes ?? [])
    .filter((c) => c.field === 'messages' && c.value)
    .map((c) => c.value!);
}

/** The text a person sent: a text's body, a button's or list reply's title, a media caption (empty when none). */
function textOf(message: CloudMessage): string | null {
  if (message.type === 'text') return message.text?.body ?? '';
  if (message.type === 'button') return message.button?.text ?? '';
  if (message.type === 'interactive') return message.interactive?.button_reply?.title ?? message.interactive?.list_reply?.title ?? '';
  if (message.type && MEDIA_TYPES.includes(message.type)) {
    const caption = (message[message.type] as { caption?: unknown } | undefined)?.caption;
    return typeof caption === 'string' ? caption : '';
  }
  if (message.type === 'location') return '';
  return null; // reactions, system notices, unsupported types: not messages to pass on.
}

interface CloudMedia {
  id?: string;
  mime_type?: string;
  filename?: string;
}

/** A media message's file (by the platform's media id, downloadable with the account's token) or a shared place. */
function contentOf(message: CloudMessage): { type: MessageKind; attachments: IncomingAttachment[] } | null {
  if (message.type === 'location') {
    const place = message.location as { latitude?: number; longitude?: number } | undefined;
    return place?.latitude === undefined || place.longitude === undefined
      ? null
      : { type: 'location', attachments: [placeAttachment(place.latitude, place.longitude)] };
  }
  if (!message.type || !MEDIA_TYPES.includes(message.type)) return null;
  const media = (message[message.type] ?? {}) as CloudMedia;
  const type = message.type as 'image' | 'video' | 'audio' | 'document' | 'sticker';
  return {
    type,
    attachments: [
      { type, url: null, ref: media.id ?? null, mimeType: media.mime_type ?? null, fileName: media.filename ?? null, size: null },
    ],
  };
}

/**
 * Meta-style webhooks: the GET handshake with the instance's verify token, every POST signed
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>`. The signing app is the instance's, or
 * the own app of an account connected with its `appSecret`; the body names the number (`phone_number_id`).
 */
export class ChatappCloudWebhooks implements WebhookReceiver {
  constructor(
    private readonly appSecret: string | undefined,
    private readonly verifyToken: string | undefined,
  ) {}

  handshake(query: IncomingRequest['query']): string | null {
    const one = (name: string) => {
      const value = query[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const token = one('hub.verify_token');
    const challenge = one('hub.challenge');
    if (one('hub.mode') !== 'subscribe' || !this.verifyToken || token === undefined || challenge === undefined) return null;
    return constantTimeEqual(token, this.verifyToken) ? challenge : null;
  }

  /**
   * The instance's app first; else the own app of an account on the one number the body is about. Such a body
   * must name a single number, so an app can never speak for a number connected through another app.
   */
  async verify(request: IncomingRequest, accounts: WebhookAccounts): Promise<WebhookSource | null> {
    const header = request.headers[SIGNATURE_HEADER];
    const signature = (Array.isArray(header) ? header[0] : header)?.match(/^sha256=([0-9a-f]{64})$/)?.[1];
    if (!signature) return null;
    const signedWith = (secret: string) => constantTimeEqual(createHmac('sha256', secret).update(request.rawBody).digest('hex'), signature);
    if (this.appSecret && signedWith(this.appSecret)) return { accountId: null };
    const numbers = new Set(changesOf(jsonObject<Notification>(request.rawBody) ?? {}).map((value) => value.metadata?.phone_number_id));
    const [number] = numbers;
    if (numbers.size !== 1 || !number || !accounts.withPlatformAccountId) return null;
    for (const account of await accounts.withPlatformAccountId('chatapp-cloud', number)) {
      const secret = account.credentials.extra?.appSecret;
      if (secret && signedWith(secret)) return { accountId: null };
    }
    return null;
  }

  /** The message ids (and status ids) it carries: Meta redelivers, and may batch them differently. */
  dedupeKey(request: IncomingRequest): string {
    const ids = changesOf(jsonObject<Notification>(request.rawBody) ?? {})
      .flatMap((value) => [...(value.messages ?? []).map((m) => m.id), ...(value.statuses ?? []).map((s) => `${s.id}:${s.status}`)])
      .filter(Boolean)
      .sort();
    if (ids.length === 0) return `body:${sha256Hex(request.rawBody)}`;
    const key = ids.join(',');
    return key.length <= 200 ? key : `ids:${sha256Hex(key)}`;
  }

  parse(rawBody: string): IncomingEvent[] {
    const events: IncomingEvent[] = [];
    for (const value of changesOf(jsonObject<Notification>(rawBody) ?? {})) {
      const phoneNumberId = value.metadata?.phone_number_id;
      if (!phoneNumberId) continue;
      for (const status of value.statuses ?? []) {
        const update = statusOf(status, phoneNumberId);
        if (update) events.push(update);
      }
      for (const message of value.messages ?? []) {
        const text = textOf(message);
        // A person is their number where the platform gives it, else their business-scoped id.
        const sender = message.from ?? message.from_user_id;
        if (text === null || !sender || !message.id) continue;
        const contact = value.contacts?.find((c) => (message.from ? c.wa_id === message.from : c.user_id === message.from_user_id));
        events.push({
          kind: 'message',
          accountId: null,
          platformAccountId: phoneNumberId,
          platformConversationId: sender,
          from: sender,
          fromName: contact?.profile?.name ?? null,
          fromPhone: message.from ? `+${message.from}` : null,
          text,
          platformMessageId: message.id,
          sentAt: message.timestamp ? new Date(Number(message.timestamp) * 1000) : new Date(),
          ...(contentOf(message) ?? {}),
        });
      }
    }
    return events;
  }
}

const STATUSES = new Set(['sent', 'delivered', 'read', 'failed']);

/** A status of a message the number sent; a failure with the platform's first error (131026, 131047 …). */
function statusOf(status: CloudStatus, phoneNumberId: string): MessageStatusUpdate | null {
  if (!status.id || !status.status || !STATUSES.has(status.status)) return null;
  const [error] = status.errors ?? [];
  return {
    kind: 'message_status',
    accountId: null,
    platformAccountId: phoneNumberId,
    status: status.status as MessageStatusUpdate['status'],
    at: status.timestamp ? new Date(Number(status.timestamp) * 1000) : new Date(),
    platformMessageIds: [status.id],
    error:
      status.status === 'failed'
        ? { code: String(error?.code ?? 'unknown'), message: error?.title ?? error?.message ?? 'The platform gave no reason.' }
        : null,
  };
}
