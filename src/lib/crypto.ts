import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A bearer secret: a recognisable prefix and 32 random bytes in base62. */
export function newSecretToken(prefix: string): string {
  return `${prefix}${toBase62(randomBytes(32))}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function toBase62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(43, '0');
}

/**
 * Tokens are random and long, so a fast hash is enough to store them (no KDF needed, unlike passwords). One call
 * (`hash`), not a Hash object: it runs on every authenticated request.
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
