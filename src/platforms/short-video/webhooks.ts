import { createHmac } from 'node:crypto';
import { constantTimeEqual, sha256Hex } from '../../lib/crypto.js';
import type { IncomingEvent, IncomingRequest, WebhookReceiver, WebhookSource } from '../capabilities/webhooks.js';
import { jsonObject } from '../json-body.js';
import { publicUrlOf } from './links.js';

const SIGNATURE_HEADER = 'tiktok-signature';
/** A signature older (or newer) than this is refused, so a captured request cannot be replayed later. */
export const TOLERANCE_SECONDS = 300;

/** The webhook body: `content` is itself a JSON string, its members depend on `event`. */
interface Notification {
  client_key?: string;
  event?: string;
  create_time?: number;
  user_openid?: string;
  content?: string;
}

/**
 * The event's `content`, itself JSON. `post_id` is an int64 past 2^53, which a plain parse would round to another
 * post's id: a bare number there is made a string first.
 */
function readContent(content: string | undefined): { publish_id?: string; post_id?: string } {
  return jsonObject<{ publish_id?: string; post_id?: string }>((content ?? '').replace(/("post_id"\s*:\s*)(-?\d+)/, '$1"$2"')) ?? {};
}

/** `TikTok-Signature: t=<unix>,s=<hex>` → its parts, or null when it is not of that shape. */
function parseSignature(header: string | string[] | undefined): { t: string; s: string } | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const parts = new Map(
    value.split(',').map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at).trim(), part.slice(at + 1).trim()] as const;
    }),
  );
  const t = parts.get('t');
  const s = parts.get('s');
  return t && /^\d{1,12}$/.test(t) && s && /^[0-9a-f]{64}$/.test(s) ? { t, s } : null;
}

/**
 * Login Kit webhooks: no handshake (the callback URL is set in the developer portal), every POST signed with the
 * app's client secret over `t + "." + rawBody`. The body names the user only by open_id, so the source is the app.
 */
export class ShortVideoWebhooks implements WebhookReceiver {
  constructor(
    private readonly clientKey: string,
    private readonly clientSecret: string,
  ) {}

  async verify(request: IncomingRequest): Promise<WebhookSource | null> {
    const signature = parseSignature(request.headers[SIGNATURE_HEADER]);
    if (!signature) return null;
    if (Math.abs(Date.now() / 1000 - Number(signature.t)) > TOLERANCE_SECONDS) return null;
    const expected = createHmac('sha256', this.clientSecret).update(`${signature.t}.${request.rawBody}`).digest('hex');
    if (!constantTimeEqual(expected, signature.s)) return null;
    // Signed with our secret yet for another client key would be a misrouted delivery: not ours to act on.
    return jsonObject<Notification>(request.rawBody)?.client_key === this.clientKey ? { accountId: null } : null;
  }

  /** Redeliveries (at least once, for 72 hours) carry the same body; the signature header differs each time. */
  dedupeKey(request: IncomingRequest): string {
    return `body:${sha256Hex(request.rawBody)}`;
  }

  /**
   * The user removed the app: every token of the grant is revoked. A post made public after its review: its public
   * id replaces the publish id it was recorded under. Other events (publish results the status already gave) are kept only.
   */
  parse(rawBody: string): IncomingEvent[] {
    const notification = jsonObject<Notification>(rawBody) ?? {};
    if (!notification.user_openid) return [];
    if (notification.event === 'authorization.removed') {
      return [{ kind: 'permission_revoked', accountId: null, platformAccountId: notification.user_openid, reason: 'token_revoked' }];
    }
    if (notification.event === 'post.publish.publicly_available') {
      const content = readContent(notification.content);
      if (!content.publish_id || !content.post_id) return [];
      const platformPostId = content.post_id;
      return [
        {
          kind: 'post_public',
          platformAccountId: notification.user_openid,
          provisionalId: content.publish_id,
          platformPostId,
          urlFor: (state) => publicUrlOf(state, platformPostId),
        },
      ];
    }
    return [];
  }
}
