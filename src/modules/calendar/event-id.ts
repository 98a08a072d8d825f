import { createHash } from 'node:crypto';

/** The alphabet of base32hex (RFC 4648 §7), lower-case: the only characters the platform takes in event ids. */
const BASE32HEX = '0123456789abcdefghijklmnopqrstuv';

function base32hex(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out;
}

/**
 * The platform event id of a create, from its write key: the same for every retry of one Idempotency-Key,
 * so the platform refuses a second event (409) instead of making it. The request itself is part of it: the key
 * reused for another event later (after the key's 24 hours) makes another id, not a match with the old event.
 */
export function clientEventId(parts: { ownerId: string; accountId: string; calendarId: string; key: string; body: unknown }): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([parts.ownerId, parts.accountId, parts.calendarId, parts.key, parts.body]))
    .digest();
  return base32hex(digest);
}
