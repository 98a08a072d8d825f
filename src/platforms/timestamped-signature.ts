import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../lib/crypto.js';

/**
 * Signature headers of the form `t=<unix seconds>,<scheme>=<hex>[,<scheme>=<hex>…]`: TikTok's `TikTok-Signature`
 * (scheme `s`) and the payment provider's `Stripe-Signature` (scheme `v1`, several while a secret is rolled).
 * Each signature is the hex HMAC-SHA256 of `t + "." + rawBody`, keyed with the sender's secret.
 */
export interface TimestampedSignature {
  /** The header's value (the first, if sent twice). */
  header: string | string[] | undefined;
  rawBody: string;
  secret: string;
  /** The member that carries a signature: `s`, `v1`. */
  scheme: string;
  /**
   * How far `t` may be from now, either way: a captured request cannot be replayed after it, nor one dated
   * ahead (by a sender whose clock is wrong, or to outlive the tolerance) be taken before it.
   */
  toleranceSeconds: number;
}

/** Whether one of the header's signatures of `scheme` signs the body, dated within the tolerance. Constant-time comparisons. */
export function timestampedSignatureValid({ header, rawBody, secret, scheme, toleranceSeconds }: TimestampedSignature): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return false;
  let t: string | undefined;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const at = part.indexOf('=');
    const name = part.slice(0, at).trim();
    const member = part.slice(at + 1).trim();
    if (name === 't') t = member;
    else if (name === scheme && /^[0-9a-f]{64}$/.test(member)) signatures.push(member);
  }
  if (!t || !/^\d{1,12}$/.test(t) || signatures.length === 0) return false;
  if (Math.abs(Date.now() / 1000 - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex');
  // Every one is compared, so the time taken does not tell which matched.
  return signatures.map((signature) => constantTimeEqual(expected, signature)).includes(true);
}
