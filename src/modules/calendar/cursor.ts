import { InvalidCursorError } from '../../lib/errors.js';

/** Where a listing continues: the platform's page token of one calendar, with the query it belongs to. */
export type ListPosition =
  | { way: 'window'; calendarId: string; pageToken: string; timeMin: string; timeMax?: string; q?: string }
  | { way: 'sync'; calendarId: string; pageToken: string };

/** A sync cursor: the platform's sync token of one calendar. */
export interface SyncPosition {
  calendarId: string;
  syncToken: string;
}

const PAGE = 'calpage1';
const SYNC = 'calsync1';

function encode(version: string, value: unknown): string {
  return Buffer.from(`${version}:${JSON.stringify(value)}`).toString('base64url');
}

function decode(version: string, cursor: string): Record<string, unknown> {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!text.startsWith(`${version}:`)) throw new InvalidCursorError();
  try {
    const value = JSON.parse(text.slice(version.length + 1)) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Falls through to the refusal: not a cursor of ours.
  }
  throw new InvalidCursorError();
}

const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

export const encodePosition = (position: ListPosition): string => encode(PAGE, position);
export const encodeSyncPosition = (position: SyncPosition): string => encode(SYNC, position);

export function decodePosition(cursor: string): ListPosition {
  const value = decode(PAGE, cursor);
  if (!text(value.calendarId) || !text(value.pageToken)) throw new InvalidCursorError();
  if (value.way === 'sync') return { way: 'sync', calendarId: value.calendarId, pageToken: value.pageToken };
  if (value.way !== 'window' || !text(value.timeMin)) throw new InvalidCursorError();
  return {
    way: 'window',
    calendarId: value.calendarId,
    pageToken: value.pageToken,
    timeMin: value.timeMin,
    ...(text(value.timeMax) ? { timeMax: value.timeMax } : {}),
    ...(text(value.q) ? { q: value.q } : {}),
  };
}

export function decodeSyncPosition(cursor: string): SyncPosition {
  const value = decode(SYNC, cursor);
  if (!text(value.calendarId) || !text(value.syncToken)) throw new InvalidCursorError();
  return { calendarId: value.calendarId, syncToken: value.syncToken };
}
