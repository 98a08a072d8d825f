import { IANAZone } from 'luxon';
import { InvalidCursorError } from './errors.js';

const VERSION = 'k1';

/**
 * What one value of a keyset position is. A cursor is opaque to clients but not sealed, so a decoded one is
 * checked value by value: anything else would reach the database (or a platform) as a client wrote it.
 */
export type KeyField = 'id' | 'providerId' | 'time' | 'dayOfWeek' | 'clock' | 'timeZone' | 'platformCursor';

const IS: Record<KeyField, (value: unknown) => boolean> = {
  id: (value) => typeof value === 'string' && /^[a-z]+_[0-9a-z]{26}$/.test(value),
  // An object's id at a provider (a payment provider's `in_…`), as it gave it.
  providerId: (value) => typeof value === 'string' && /^[A-Za-z0-9_]{1,255}$/.test(value),
  // As keysetPage writes a time: toISOString(), four-digit years only.
  time: (value) =>
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value) &&
    !Number.isNaN(Date.parse(value)) &&
    new Date(value).toISOString() === value,
  dayOfWeek: (value) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 7,
  clock: (value) => typeof value === 'string' && /^([01][0-9]|2[0-3]):[0-5][0-9]$/.test(value),
  timeZone: (value) => typeof value === 'string' && value.length <= 64 && IANAZone.isValidZone(value),
  // A platform's own page token, passed back to it: printable ASCII, as every platform's is.
  platformCursor: (value) => typeof value === 'string' && /^[\x20-\x7e]{1,1024}$/.test(value),
};

/** A keyset position (the sort values of the last row of a page), opaque to clients like every cursor. */
export function encodeKeyset(values: Array<string | number>): string {
  return Buffer.from(`${VERSION}:${JSON.stringify(values)}`).toString('base64url');
}

/** The position a cursor holds, each value of the kind `shape` names; 400 `invalid_cursor` for anything else. */
export function decodeKeyset(cursor: string | undefined, shape: KeyField[]): Array<string | number> | null {
  if (!cursor) return null;
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const [version, json] = decoded.split(/:(.*)/s);
  let values: unknown;
  try {
    values = version === VERSION && json ? JSON.parse(json) : null;
  } catch {
    values = null;
  }
  if (!Array.isArray(values) || values.length !== shape.length || values.some((value, i) => !IS[shape[i]!](value))) {
    throw new InvalidCursorError();
  }
  return values as Array<string | number>;
}

/** `limit + 1` rows fetched in keyset order: the page's rows, and the cursor after its last (null on the last page). */
export function keysetPage<R>(
  rows: R[],
  limit: number,
  keyOf: (row: R) => Array<string | number>,
): { rows: R[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: encodeKeyset(keyOf(page[page.length - 1]!)) };
}
