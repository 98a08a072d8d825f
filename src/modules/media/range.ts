import { RangeNotSatisfiableError } from './errors.js';
import type { ByteRange } from './storage.js';

/**
 * The one byte range a `Range` header asks for, or null for the whole file: no header, several ranges, another
 * unit, a range that does not parse, or an `If-Range` validator that is not the file's (RFC 9110 §14.2 lets a
 * server ignore all of these). A range starting past the end is 416.
 */
export function requestedRange(header: string | undefined, ifRange: string | undefined, etag: string, size: number): ByteRange | null {
  if (!header || (ifRange && ifRange !== etag)) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '') {
    if (last === '') return null;
    const length = Number(last);
    if (length === 0) throw new RangeNotSatisfiableError(size, 'A range of the last 0 bytes selects nothing.');
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (last !== '' && Number(last) < start) return null;
  if (start >= size) throw new RangeNotSatisfiableError(size, `The file has ${size} bytes; the range starts at ${start}.`);
  return { start, end: last === '' ? size - 1 : Math.min(Number(last), size - 1) };
}
