import { sha256Hex } from '../../lib/crypto.js';
import type { IncomingEvent, IncomingRequest, WebhookReceiver, WebhookSource } from '../capabilities/webhooks.js';
import { jsonObject } from '../json-body.js';
import { timestampedSignatureValid } from '../timestamped-signature.js';

const SIGNATURE_HEADER = 'tiktok-signature';
/** A signature older (or newer) than this is refused, so a captured request cannot be replayed later. */
const TOLERANCE_SECONDS = 300;

/** TikTok's webhook body, for Login Kit and the Business API alike: `content` is itself a JSON string, its members depend on `event`. */
export interface TikTokNotification {
  client_key?: string;
  event?: string;
  create_time?: number;
  user_openid?: string;
  content?: string;
}

/**
 * TikTok's webhooks: no handshake (the callback URL is set in the developer portal), every POST signed with the
 * app's secret as `TikTok-Signature: t=<unix>,s=<hex HMAC-SHA256 of "t.rawBody">`. The app signs for all its
 * users, so the source is the app; the body says whom it is about. Each platform reads its own events.
 */
export abstract class TikTokWebhooks implements WebhookReceiver {
  /** `clientKey`: the app's id as the body names it (`client_key`); `secret`: the key of its signatures. */
  constructor(
    private readonly clientKey: string,
    private readonly secret: string,
  ) {}

  async verify(request: IncomingRequest): Promise<WebhookSource | null> {
    const { rawBody } = request;
    const header = request.headers[SIGNATURE_HEADER];
    if (!timestampedSignatureValid({ header, rawBody, secret: this.secret, scheme: 's', toleranceSeconds: TOLERANCE_SECONDS })) return null;
    // Signed with our secret yet for another app would be a misrouted delivery: not ours to act on.
    return jsonObject<TikTokNotification>(rawBody)?.client_key === this.clientKey ? { accountId: null } : null;
  }

  /** Redeliveries (at least once, for 72 hours) carry the same body; the signature header differs each time. */
  dedupeKey(request: IncomingRequest): string {
    return `body:${sha256Hex(request.rawBody)}`;
  }

  abstract parse(rawBody: string): IncomingEvent[];
}
