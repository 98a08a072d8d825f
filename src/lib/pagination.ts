import { fullFormats } from 'ajv-formats/dist/formats.js';
import { IANAZone } from 'luxon';
import { InvalidCursorError } from './errors.js';

/**
 * Every list's cursor: opaque to clients, a versioned, base64url-wrapped position, never an offset. Four kinds:
 * the last id of a list in descending id order (`pageRequest`, `toPage`); the sort values of the last row of a
 * list in another order (`decodeKeyset`, `keysetPage`); a platform's own page token, for a list read live from
 * the platform (`platformPage`); and a platform's token with the query it belongs to (`cursorForm`).
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
export type KeyField = 'id' | 'providerId' | 'time' | 'dayOfWeek' | 'clock' | 'timeZone' | 'platformCursor' | 'dateTime' | 'text';

/** The contract's own check of a `date-time` (what a query's instant passed). */
const isDateTime = (fullFormats['date-time'] as { validate: (value: string) => boolean }).validate;

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
  // An instant as a query gives it (RFC 3339, the contract's date-time), passed on as it was written.
  dateTime: (value) => typeof value === 'string' && value.length <= 64 && isDateTime(value),
  // A query's own words (a filter, the platform's id of what is listed), at most as long as a query takes them.
  text: (value) => typeof value === 'string' && value.length >= 1 && value.length <= 1024,
};

/** JSON as a cursor holds it, or null when it is not JSON. */
function parsed(json: string | null): unknown {
  try {
    return json === null ? null : JSON.parse(json);
  } catch {
    return null;
  }
}

/** A keyset position (the sort values of the last row of a page). */
export function encodeKeyset(values: Array<string | number>): string {
  return encode(KEYSET_VERSION, JSON.stringify(values));
}

/** The position a cursor holds, each value of the kind `shape` names; 400 `invalid_cursor` for anything else. */
export function decodeKeyset(cursor: string | undefined, shape: KeyField[]): Array<string | number> | null {
  if (!cursor) return null;
  const values = parsed(decode(KEYSET_VERSION, cursor));
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

/** A cursor form's members: each a kind of value, or the words it may be; a name ending in `?` may be absent. */
export type FormShape = Record<string, Exclude<KeyField, 'dayOfWeek'> | readonly string[]>;
type ValueOf<K> = K extends readonly string[] ? K[number] : string;
/** What a cursor of a form holds. */
export type FormValue<S extends FormShape> = {
  [K in keyof S as K extends `${string}?` ? never : K]: ValueOf<S[K]>;
} & {
  [K in keyof S as K extends `${infer Name}?` ? Name : never]?: ValueOf<S[K]>;
};

export interface CursorForm<S extends FormShape> {
  encode(value: FormValue<S>): string;
  /**
   * The value a cursor of this form holds: 400 `invalid_cursor` for any other cursor (a member missing, unknown or
   * not of its kind), and for one of another query: each member `asked` gives must be the cursor's.
   */
  decode(cursor: string, asked?: Partial<FormValue<S>>): FormValue<S>;
}

/**
 * A cursor of a list read live from a platform whose token belongs to a query (a calendar, a time window and its
 * filters; a sync's position): a versioned JSON object holding the token with that query, so that the next page
 * is asked of the platform with the query of the first, and a cursor is never used with another.
 */
export function cursorForm<const S extends FormShape>(version: string, shape: S): CursorForm<S> {
  const members = new Map(Object.entries(shape).map(([name, kind]) => [name.replace(/\?$/, ''), { kind, optional: name.endsWith('?') }]));
  const fits = (kind: FormShape[string], value: unknown) => (typeof kind === 'string' ? IS[kind](value) : kind.includes(value as string));
  /** Whether a decoded value is of this form: only its members, each there (unless optional) and of its kind. */
  const ofForm = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).every((name) => members.has(name)) &&
    [...members].every(([name, { kind, optional }]) => {
      const member = (value as Record<string, unknown>)[name];
      return member === undefined ? optional : fits(kind, member);
    });
  return {
    encode: (value) => encode(version, JSON.stringify(value)),
    decode(cursor, asked = {}) {
      const value = parsed(decode(version, cursor));
      if (!ofForm(value) || Object.entries(asked).some(([name, wanted]) => wanted !== undefined && value[name] !== wanted)) {
        throw new InvalidCursorError();
      }
      return value as FormValue<S>;
    },
  };
}
