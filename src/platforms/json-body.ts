/** A webhook's body (or a member of it that is JSON text) as an object; null when it is not a JSON object. */
export function jsonObject<T extends object>(text: string): T | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as T) : null;
  } catch {
    return null;
  }
}

/** A JSON string (left as it is), or an integer of 16 digits or more outside one. */
const STRING_OR_LONG_INTEGER = /"(?:[^"\\]|\\.)*"|-?\d{16,}(?=\s*[,}\]]|\s*$)/g;

/**
 * JSON text parsed with every integer too large for a double kept as its digits (a string): a platform's ids are
 * such integers at times (Threads' `user_id`), and a number would round them to another id.
 */
export function parseJsonExactly(text: string): unknown {
  // Without 16 digits in a row anywhere there is no such integer: most answers are parsed without the scan.
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  return JSON.parse(
    text.replace(STRING_OR_LONG_INTEGER, (token) => (token.startsWith('"') || Number.isSafeInteger(Number(token)) ? token : `"${token}"`)),
  );
}
