import { InvalidCursorError } from './errors.js';

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface PageRequest {
  limit: number;
  /** The id after which (in descending id order) the page starts, decoded from the cursor. */
  after: string | null;
}

const CURSOR_VERSION = 'v1';

/** Cursors are opaque to clients: a versioned, base64url-wrapped position, never an offset. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(`${CURSOR_VERSION}:${lastId}`).toString('base64url');
}

export function pageRequest(query: { limit?: number; cursor?: string } | undefined): PageRequest {
  const limit = query?.limit ?? 20;
  if (!query?.cursor) return { limit, after: null };
  const decoded = Buffer.from(query.cursor, 'base64url').toString('utf8');
  const [version, lastId] = decoded.split(/:(.*)/s);
  if (version !== CURSOR_VERSION || !lastId || !/^[a-z]+_[0-9a-z]{26}$/.test(lastId)) {
    throw new InvalidCursorError();
  }
  return { limit, after: lastId };
}

/** Turns `limit + 1` rows fetched in descending id order into a page. */
export function toPage<Row extends { id: string }, T>(rows: Row[], request: PageRequest, present: (row: Row) => T): Page<T> {
  const hasMore = rows.length > request.limit;
  const pageRows = hasMore ? rows.slice(0, request.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return { data: pageRows.map(present), nextCursor: hasMore && last ? encodeCursor(last.id) : null };
}
