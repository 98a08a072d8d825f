import type { SecretBox } from '../../lib/secret-box.js';

/**
 * A secret inside an event's `data` (a pass's download link) is stored sealed, in the `events` row and in the
 * stored delivery body alike, and opened only into the bytes sent to the hook: no row holds it in clear.
 */
const MARK = 'sealed:';
const SEALED = /"sealed:(v1\.[\w-]+\.[\w-]+\.[\w-]+)"/g;

/** The value to put in an event's data in place of `secret`. */
export function sealedForDelivery(secrets: SecretBox, secret: string): string {
  return MARK + secrets.seal(secret);
}

/**
 * The body as the hook receives it: every sealed value opened, as a JSON string. The same stored body opens to
 * the same bytes on every attempt, so a retry is signed and sent as the first was. A lookalike that does not open
 * with our key (text a person wrote) is left as it is.
 */
export function openedForDelivery(secrets: SecretBox, body: string): string {
  if (!body.includes(`"${MARK}`)) return body;
  return body.replace(SEALED, (marked: string, ciphertext: string) => {
    try {
      return JSON.stringify(secrets.open(ciphertext));
    } catch {
      return marked;
    }
  });
}
