import { createHmac } from 'node:crypto';
import { constantTimeEqual, sha256Hex } from '../../lib/crypto.js';
import {
  type IncomingAttachment,
  type IncomingEvent,
  type IncomingRequest,
  placeAttachment,
  type WebhookReceiver,
  type WebhookSource,
} from '../capabilities/webhooks.js';
import { jsonObject } from '../json-body.js';
import { feedComments } from './feed-webhooks.js';

/** What we read of the Graph webhook envelope: Messenger's `messaging[]` and the permissions object's `changes[]`. */
interface Notification {
  object?: string;
  entry?: Array<{
    id?: string;
    time?: number;
    messaging?: Messaging[];
    changes?: Array<{ field?: string; value?: { verb?: string; target_ids?: Array<string | number> } }>;
  }>;
}
interface Messaging {
  sender?: { id?: string };
  recipient?: { id?: string };
  timestamp?: number;
  message?: { mid?: string; text?: string; is_echo?: boolean; attachments?: MessengerAttachment[] };
  delivery?: { mids?: string[]; watermark?: number };
  read?: { watermark?: number };
}
interface MessengerAttachment {
  type?: string;
  payload?: { url?: string; sticker_id?: number; coordinates?: { lat?: number; long?: number } };
}
/** The deauthorize callback's signed payload. */
interface SignedRequest {
  algorithm?: string;
  issued_at?: number;
  user_id?: string;
}

const SIGNATURE_HEADER = 'x-hub-signature-256';

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** `<b64url signature>.<b64url payload>`: the pieces, before any check. */
function splitSignedRequest(rawBody: string): { signature: string; payload: string } | null {
  const signed = new URLSearchParams(rawBody).get('signed_request');
  const [signature, payload, ...rest] = signed?.split('.') ?? [];
  return signature && payload && rest.length === 0 ? { signature, payload } : null;
}

function decodePayload(payload: string): SignedRequest | null {
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SignedRequest;
  } catch {
    return null;
  }
}

/**
 * Meta's webhooks for pages and permissions: the GET handshake with our verify token; each POST signed
 * `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>`; and the deauthorize callback, a form
 * with `signed_request`, whose signature is HMAC-SHA256 over the payload segment as sent. Every one is signed
 * by the app, so the source is never one account: the body says which.
 */
export class SocialNetworkWebhooks implements WebhookReceiver {
  constructor(
    private readonly appSecret: string,
    readonly verifyToken: string,
  ) {}

  handshake(query: IncomingRequest['query']): string | null {
    const token = one(query['hub.verify_token']);
    const challenge = one(query['hub.challenge']);
    if (one(query['hub.mode']) !== 'subscribe' || token === undefined || challenge === undefined) return null;
    return constantTimeEqual(token, this.verifyToken) ? challenge : null;
  }

  async verify(request: IncomingRequest): Promise<WebhookSource | null> {
    if (/application\/x-www-form-urlencoded/.test(one(request.headers['content-type']) ?? '')) {
      const parts = splitSignedRequest(request.rawBody);
      if (!parts) return null;
      const expected = createHmac('sha256', this.appSecret).update(parts.payload).digest('base64url');
      if (!constantTimeEqual(parts.signature, expected)) return null;
      return decodePayload(parts.payload)?.algorithm?.toUpperCase() === 'HMAC-SHA256' ? { accountId: null } : null;
    }
    const signature = one(request.headers[SIGNATURE_HEADER])?.match(/^sha256=([0-9a-f]{64})$/)?.[1];
    if (!signature) return null;
    const expected = createHmac('sha256', this.appSecret).update(request.rawBody).digest('hex');
    return constantTimeEqual(expected, signature) ? { accountId: null } : null;
  }

  /** Messages by their ids (Meta redelivers, and may batch differently); everything else by its body. */
  dedupeKey(request: IncomingRequest): string {
    const mids = (jsonObject<Notification>(request.rawBody)?.entry ?? [])
      .flatMap((entry) => entry.messaging ?? [])
      .map((event) => event.message?.mid)
      .filter((mid): mid is string => Boolean(mid))
      .sort();
    if (mids.length === 0) return `body:${sha256Hex(request.rawBody)}`;
    const key = `mids:${mids.join(',')}`;
    return key.length <= 200 ? key : `mids:${sha256Hex(key)}`;
  }

  parse(rawBody: string): IncomingEvent[] {
    const notification = jsonObject<Notification>(rawBody);
    if (!notification) {
      // Verified already: a form body is the deauthorize callback. The person removed the app.
      const parts = splitSignedRequest(rawBody);
      const userId = parts ? decodePayload(parts.payload)?.user_id : undefined;
      return userId
        ? [
            {
              kind: 'permission_revoked',
              accountId: null,
              platformAccountId: null,
              platformUserId: String(userId),
              reason: 'token_revoked',
            },
          ]
        : [];
    }
    if (notification.object === 'permissions') return revocations(notification);
    if (notification.object === 'page') return [...messages(notification), ...feedComments(notification)];
    return [];
  }
}

/**
 * A permission the person took back ([U] entry id: their app-scoped id). Any revoked permission leaves the
 * grant short of what the service asked for, so the affected accounts need a reconnection: those of
 * `target_ids` where the permission is granular, else all of the person's.
 */
function revocations(notification: Notification): IncomingEvent[] {
  const events: IncomingEvent[] = [];
  for (const entry of notification.entry ?? []) {
    if (!entry.id) continue;
    for (const change of entry.changes ?? []) {
      if (change.value?.verb !== 'revoked') continue;
      const targets = change.value.target_ids?.map(String) ?? [];
      const revoked = { kind: 'permission_revoked', accountId: null, platformUserId: entry.id, reason: 'permission_missing' } as const;
      if (targets.length === 0) events.push({ ...revoked, platformAccountId: null });
      for (const target of targets) events.push({ ...revoked, platformAccountId: target });
    }
  }
  return events;
}

/** A person's Messenger message to a page: the page is the account, the person's page-scoped id (PSID) the sender. */
function messages(notification: Notification): IncomingEvent[] {
  const events: IncomingEvent[] = [];
  for (const entry of notification.entry ?? []) {
    for (const event of entry.messaging ?? []) {
      const receipt = receiptOf(event, entry.id);
      if (receipt) events.push(receipt);
      const message = event.message;
      // Echoes are the page's own messages, sent from its inbox.
      const attachments = (message?.attachments ?? []).map(attachmentOf);
      const text = message?.text ?? (attachments.length > 0 ? '' : undefined);
      if (!message?.mid || message.is_echo || text === undefined || !event.sender?.id) continue;
      const pageId = event.recipient?.id ?? entry.id;
      if (!pageId) continue;
      events.push({
        kind: 'message',
        accountId: null,
        platformAccountId: pageId,
        platformConversationId: event.sender.id,
        from: event.sender.id,
        fromName: null,
        text,
        platformMessageId: message.mid,
        ...(attachments.length > 0 ? { type: attachments[0]!.type === 'other' ? 'other' : attachments[0]!.type, attachments } : {}),
        sentAt: new Date(event.timestamp ?? entry.time ?? Date.now()),
      });
    }
  }
  return events;
}

/**
 * Messenger's receipts, sent by the person's app: `delivery` names the messages (`mids`, absent on old clients)
 * and a watermark, `read` only a watermark: every message the page sent the person before it.
 */
function receiptOf(event: Messaging, entryId: string | undefined): IncomingEvent | null {
  const receipt = event.read ?? event.delivery;
  const pageId = event.recipient?.id ?? entryId;
  if (!receipt || !pageId || !event.sender?.id || receipt.watermark === undefined) return null;
  const mids = event.delivery?.mids ?? [];
  return {
    kind: 'message_status',
    accountId: null,
    platformAccountId: pageId,
    status: event.read ? 'read' : 'delivered',
    at: new Date(event.timestamp ?? receipt.watermark),
    platformMessageIds: mids,
    ...(mids.length === 0 ? { watermark: { platformConversationId: event.sender.id, upTo: new Date(receipt.watermark) } } : {}),
  };
}

/** A Messenger attachment: its CDN URL (public, short-lived), a sticker (an image with `sticker_id`), a place. */
function attachmentOf(attachment: MessengerAttachment): IncomingAttachment {
  const { lat, long } = attachment.payload?.coordinates ?? {};
  if (attachment.type === 'location' && lat !== undefined && long !== undefined) return placeAttachment(lat, long);
  const type =
    attachment.payload?.sticker_id !== undefined
      ? 'sticker'
      : attachment.type === 'file'
        ? 'document'
        : attachment.type === 'image' || attachment.type === 'video' || attachment.type === 'audio'
          ? attachment.type
          : 'other';
  return { type, url: attachment.payload?.url ?? null, ref: null, mimeType: null, fileName: null, size: null };
}
