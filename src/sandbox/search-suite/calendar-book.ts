import type { RouterContext } from '@koa/router';
import { type CalendarState, CalendarRefusal, findInstance, type SandboxCalendar, type StoredEvent } from './calendar-store.js';

/**
 * Faults the next Calendar v3 calls meet: the two quota answers (403 `rateLimitExceeded`, 429), a server error,
 * and an insert that is made but whose answer is lost (the connection is cut).
 */
export type CalendarFault =
  { kind: 'rate_limited' } | { kind: 'too_many_requests' } | { kind: 'server_error' } | { kind: 'drop_after_insert' };

export const PRIMARY: SandboxCalendar = {
  id: 'owner@acme.example',
  summary: 'Acme bookings',
  timeZone: 'Europe/Berlin',
  accessRole: 'owner',
  primary: true,
};

/** Members a client may write; the rest are the platform's. */
const WRITABLE = [
  'summary',
  'description',
  'location',
  'start',
  'end',
  'recurrence',
  'visibility',
  'transparency',
  'attendees',
  'reminders',
  'status',
];

export const isWritable = (member: string) => WRITABLE.includes(member);

export const writable = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).filter(([key]) => isWritable(key)));

/** JSON merge of a patch: objects member by member, `null` removes, anything else replaces. */
export function merge(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    if (value === null) delete out[key];
    else if (
      typeof value === 'object' &&
      !Array.isArray(value) &&
      typeof current === 'object' &&
      current !== null &&
      !Array.isArray(current)
    )
      out[key] = merge(current as Record<string, unknown>, value as Record<string, unknown>);
    else out[key] = value;
  }
  return out;
}

/** The platform's error body: its status, reason and words. */
export function refuse(ctx: RouterContext, code: number, reason: string, message: string): void {
  ctx.status = code;
  ctx.body = { error: { code, message, errors: [{ domain: code === 403 || code === 429 ? 'usageLimits' : 'global', reason, message }] } };
}

/** Runs a route's work; a CalendarRefusal it throws is the answer. */
export function answer(ctx: RouterContext, work: () => void): void {
  try {
    work();
  } catch (error) {
    if (!(error instanceof CalendarRefusal)) throw error;
    refuse(ctx, error.code, error.reason, error.message);
  }
}

/** The sandbox's calendars and their events: what the API routes and the people's controls both work on. */
export class CalendarBook {
  readonly faults: CalendarFault[] = [];

  constructor(readonly state: CalendarState) {}

  static empty(): CalendarState {
    return {
      calendars: new Map([[PRIMARY.id, PRIMARY]]),
      events: new Map(),
      changes: 0,
      syncTokens: 0,
      expiredUpTo: new Map(),
      nextId: 1,
      updates: [],
    };
  }

  /** `primary` is the owner's own calendar, as on the platform. */
  calendar(id: string): SandboxCalendar | undefined {
    return this.state.calendars.get(id === 'primary' ? PRIMARY.id : id);
  }

  events(calendar: SandboxCalendar): Map<string, StoredEvent> {
    if (!this.state.events.has(calendar.id)) this.state.events.set(calendar.id, new Map());
    return this.state.events.get(calendar.id)!;
  }

  /** The stored event, or an instance of a series nobody changed yet; 404 when neither. */
  find(calendar: SandboxCalendar, id: string): StoredEvent {
    const found = this.events(calendar).get(id) ?? findInstance(this.events(calendar), id, calendar);
    if (!found) throw new CalendarRefusal(404, 'notFound', 'Not Found');
    return found;
  }

  /** Keeps a written event with the next change number and a new etag. */
  write(calendar: SandboxCalendar, event: Omit<StoredEvent, 'etag' | 'changed' | 'updated'>): StoredEvent {
    this.state.changes += 1;
    const stored: StoredEvent = {
      ...event,
      changed: this.state.changes,
      updated: new Date().toISOString(),
      etag: `"${Date.now()}${String(this.state.changes).padStart(4, '0')}"`,
    };
    this.events(calendar).set(stored.id, stored);
    return stored;
  }

  /** A change to an event, merged as a patch: a changed instance becomes an exception of its series. */
  change(calendar: SandboxCalendar, current: StoredEvent, patch: Record<string, unknown>): StoredEvent {
    const next = merge(current as unknown as Record<string, unknown>, writable(patch)) as unknown as StoredEvent;
    return this.write(calendar, { ...next, sequence: current.sequence + 1 });
  }
}

/** An event as the API shows it (without the sandbox's change number). */
export const present = ({ changed: _changed, ...event }: StoredEvent) => event;
