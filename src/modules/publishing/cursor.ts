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
