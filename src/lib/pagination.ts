import { IANAZone } from 'luxon';
import { InvalidCursorError } from './errors.js';

/**
 * Every list's cursor: opaque to clients, a versioned, base64url-wrapped position, never an offset. Three kinds:
 * the last id of a list in descending id order (`pageRequest`, `toPage`); the sort values of the last row of a
 * list in another order (`decodeKeyset`, `keysetPage`); a platform's own page token, for a list read live from
 * the platform (`platformPage`).
 */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** The page a client asks for when a query gives none. */
const DEFAULT_LIMIT = 20;

export interface PageRequest {
  limit: number;
  /** The id after which (in descending id order) the page starts, decoded from the cursor. */
  after: string | null;
}

const ID_VERSION = 'v1';
const KEYSET_VERSION = 'k1';

function encode(version: string, position: string): string {
  return Buffer.from(`${version}:${position}`).toString('base64url');
}

/** The position a cursor of this version holds, or null when it is not one. */
function decode(version: string, cursor: string): string | null {
  const [found, position] = Buffer.from(cursor, 'base64url').toString('utf8').split(/:(.*)/s);
  return found === version && position ? position : null;
}

export function pageRequest(query: { limit?: number; cursor?: string } | undefined): PageRequest {
  const limit = query?.limit ?? DEFAULT_LIMIT;
  if (!query?.cursor) return { limit, after: null };
  const lastId = decode(ID_VERSION, query.cursor);
  if (lastId === null || !IS.id(lastId)) throw new InvalidCursorError();
  return { limit, after: lastId };
}

/** Turns `limit + 1` rows fetched in descending id order into a page. */
export function toPage<Row extends { id: string }, T>(rows: Row[], request: PageRequest, present: (row: Row) => T): Page<T> {
  const hasMore = rows.length > request.limit;
  const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return { data: pageRows.map(present), nextCursor: hasMore && last ? encode(ID_VERSION, last.id) : null };
}

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

/** A keyset position (the sort values of the last row of a page). */
export function encodeKeyset(values: Array<string | number>): string {
  return encode(KEYSET_VERSION, JSON.stringify(values));
}

/** The position a cursor holds, each value of the kind `shape` names; 400 `invalid_cursor` for anything else. */
export function decodeKeyset(cursor: string | undefined, shape: KeyField[]): Array<string | number> | null {
  if (!cursor) return null;
  const json = decode(KEYSET_VERSION, cursor);
  let values: unknown;
  try {
    values = json === null ? null : JSON.parse(json);
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

/** One page as a platform gives it: the items (presented already) and its own token of the next page (null or empty on the last). */
export interface PlatformPageOf<T> {
  data: T[];
  next: string | null;
}

/**
 * A page of a list read live from a platform. The platform's page token travels inside our cursor (checked
 * before the platform is asked: 400 `invalid_cursor` for one we did not give out), so each page is asked of the
 * platform exactly once and a client never holds, nor forges, the platform's own token.
 */
export async function platformPage<T>(
  query: { limit?: number; cursor?: string },
  read: (page: { limit: number; after: string | undefined }) => Promise<PlatformPageOf<T>>,
): Promise<Page<T>> {
  const after = decodeKeyset(query.cursor, ['platformCursor'])?.[0] as string | undefined;
  const { data, next } = await read({ limit: query.limit ?? DEFAULT_LIMIT, after });
  return { data, nextCursor: next ? encodeKeyset([next]) : null };
}
