import { ValidationFailedError } from '../../lib/errors.js';

const VERSION = 'k1';

/** A keyset position (the sort values of the last row of a page), opaque to clients like every cursor. */
export function encodeKeyset(values: Array<string | number>): string {
  return Buffer.from(`${VERSION}:${JSON.stringify(values)}`).toString('base64url');
}

export function decodeKeyset(cursor: string | undefined, shape: Array<'string' | 'number'>): Array<string | number> | null {
  if (!cursor) return null;
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  const [version, json] = decoded.split(/:(.*)/s);
  let values: unknown;
  try {
    values = version === VERSION && json ? JSON.parse(json) : null;
  } catch {
    values = null;
  }
  if (!Array.isArray(values) || values.length !== shape.length || values.some((v, i) => typeof v !== shape[i])) {
    throw new ValidationFailedError([{ path: 'query/cursor', message: 'is not a cursor from a previous page', code: 'cursor' }]);
  }
  return values as Array<string | number>;
}

/** `limit + 1` rows fetched in keyset order: the page's rows, and the cursor after its last (null on the last page). */
export function keysetPage<R>(rows: R[], limit: number, keyOf: (row: R) => Array<string | number>): { rows: R[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: encodeKeyset(keyOf(page[page.length - 1]!)) };
}
