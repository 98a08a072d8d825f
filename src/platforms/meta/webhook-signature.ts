import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../lib/crypto.js';
import type { IncomingRequest } from '../capabilities/webhooks.js';

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Meta's GET handshake: `hub.mode=subscribe` with our verify token; the challenge to echo, or null to refuse. */
export function metaHandshake(query: IncomingRequest['query'], verifyToken: string): string | null {
  const token = one(query['hub.verify_token']);
  const challenge = one(query['hub.challenge']);
  if (one(query['hub.mode']) !== 'subscribe' || token === undefined || challenge === undefined) return null;
  return constantTimeEqual(token, verifyToken) ? challenge : null;
}

/** `X-Hub-Signature-256: sha256=<hex HMAC-SHA256(app secret, raw body)>`, compared in constant time. */
export function metaSignatureValid(request: IncomingRequest, appSecret: string): boolean {
  const signature = one(request.headers['x-hub-signature-256'])?.match(/^sha256=([0-9a-f]{64})$/)?.[1];
  if (!signature) return false;
  return constantTimeEqual(createHmac('sha256', appSecret).update(request.rawBody).digest('hex'), signature);
}

/** Without a configured verify token, one derived from the app secret: stable, and known to nobody else. */
export function derivedVerifyToken(appSecret: string): string {
  return createHmac('sha256', appSecret).update('socialgate webhook verify token').digest('base64url');
}
