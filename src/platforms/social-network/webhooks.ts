import { createHmac } from 'node:crypto';
import { constantTimeEqual, sha256Hex } from '../../lib/crypto.js';
import type { IncomingEvent, IncomingRequest, WebhookReceiver, WebhookSource } from '../capabilities/webhooks.js';
import { jsonObject } from '../json-body.js';
import type { GraphNotification } from '../meta/graph-webhook.js';
import { metaHandshake, metaSignatureValid } from '../meta/webhook-signature.js';
import { GRAPH_OBJECTS } from './webhook-objects.js';

/** What the dedupe key reads of a notification: its Messenger messages' ids. */
interface WithMessages {
  entry?: Array<{ messaging?: Array<{ message?: { mid?: string } }> }>;
}
/** The deauthorize callback's signed payload. */
interface SignedRequest {
  algorithm?: string;
  issued_at?: number;
  user_id?: string;
}

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
 * by the app, so the source is never one account: the body says which. Each Graph object's events are read by
 * its own parser (./webhook-objects.ts).
 */
export class SocialNetworkWebhooks implements WebhookReceiver {
  /** Messenger's `messages` need the page's messaging permission; a page feed's comments, its user engagement. */
  readonly eventScopes = { message: ['pages_messaging'], comment: ['pages_read_user_engagement'] };

  constructor(
    private readonly appSecret: string,
    readonly verifyToken: string,
  ) {}

  handshake(query: IncomingRequest['query']): string | null {
    return metaHandshake(query, this.verifyToken);
  }

  async verify(request: IncomingRequest): Promise<WebhookSource | null> {
    if (/application\/x-www-form-urlencoded/.test(one(request.headers['content-type']) ?? '')) {
      const parts = splitSignedRequest(request.rawBody);
      if (!parts) return null;
      const expected = createHmac('sha256', this.appSecret).update(parts.payload).digest('base64url');
      if (!constantTimeEqual(parts.signature, expected)) return null;
      return decodePayload(parts.payload)?.algorithm?.toUpperCase() === 'HMAC-SHA256' ? { accountId: null } : null;
    }
    return metaSignatureValid(request, this.appSecret) ? { accountId: null } : null;
  }

  /** Messages by their ids (Meta redelivers, and may batch differently); everything else by its body. */
  dedupeKey(request: IncomingRequest): string {
    const mids = (jsonObject<WithMessages>(request.rawBody)?.entry ?? [])
      .flatMap((entry) => entry.messaging ?? [])
      .map((event) => event.message?.mid)
      .filter((mid): mid is string => Boolean(mid))
      .sort();
    if (mids.length === 0) return `body:${sha256Hex(request.rawBody)}`;
    const key = `mids:${mids.join(',')}`;
    return key.length <= 200 ? key : `mids:${sha256Hex(key)}`;
  }

  parse(rawBody: string): IncomingEvent[] {
    const notification = jsonObject<GraphNotification>(rawBody);
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
    return GRAPH_OBJECTS.filter(({ object }) => object === notification.object).flatMap((parser) => parser.parse(notification));
  }
}
