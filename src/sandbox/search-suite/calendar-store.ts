import { DateTime, IANAZone } from 'luxon';
import { InvalidRecurrence, ruleSet, starts } from './calendar-recurrence.js';

export interface EventTime {
  dateTime?: string;
  date?: string;
  timeZone?: string;
}

/** An event as the calendar keeps it (Calendar v3's Event), with the change number that orders syncs. */
export interface StoredEvent {
  kind: 'calendar#event';
  id: string;
  etag: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  iCalUID: string;
  htmlLink: string;
  created: string;
  updated: string;
  summary?: string;
  description?: string;
  location?: string;
  start?: EventTime;
  end?: EventTime;
  recurrence?: string[];
  recurringEventId?: string;
  originalStartTime?: EventTime;
  visibility?: string;
  transparency?: string;
  organizer?: { email: string; displayName?: string; self?: boolean };
  attendees?: Array<{ email: string; displayName?: string; optional?: boolean; responseStatus: string }>;
  reminders?: { useDefault: boolean; overrides?: Array<{ method: string; minutes: number }> };
  sequence: number;
  /** The calendar's change number when it was last written: a sync token names the changes after one. */
  changed: number;
}

export interface SandboxCalendar {
  id: string;
  summary: string;
  description?: string;
  timeZone: string;
  accessRole: 'owner' | 'writer' | 'reader';
  primary?: boolean;
}

/** What the calendar part keeps across a restart. */
export interface CalendarState {
  calendars: Map<string, SandboxCalendar>;
  events: Map<string, Map<string, StoredEvent>>;
  /** The change counter, shared by every calendar. */
  changes: number;
  /** How many sync tokens were given out: each is numbered. */
  syncTokens: number;
  /** Per calendar, sync tokens numbered up to this no longer work (410): they expired. */
  expiredUpTo: Map<string, number>;
  nextId: number;
  /** Who was told of each write: tests look at whether guests were emailed. */
  updates: Array<{ calendarId: string; eventId: string; method: string; sendUpdates: string; guests: string[] }>;
}

/** A refusal with the platform's status, reason and words. */
export class CalendarRefusal extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

const INSTANCE_ID = /^(.+)_(\d{8}(?:T\d{6}Z)?)$/;
export const BASE32HEX_ID = /^[a-v0-9]{5,1024}$/;

export function zoneOf(event: StoredEvent, calendar: SandboxCalendar): string {
  return event.start?.timeZone ?? calendar.timeZone;
}

/** The instant (for a date: its midnight in the event's zone; for a time without an offset: that time there) of a start or end. */
export function instantOf(time: EventTime, zone: string): DateTime {
  return time.date ? DateTime.fromISO(time.date, { zone }) : DateTime.fromISO(time.dateTime!, { zone, setZone: true }).setZone(zone);
}

/** The checks the platform makes of an event it is given: zones, kinds, order, rules. */
export function checkTimes(event: Pick<StoredEvent, 'start' | 'end' | 'recurrence'>): void {
  const { start, end } = event;
  if (!start || !end || (!start.date && !start.dateTime) || (!end.date && !end.dateTime))
    throw new CalendarRefusal(400, 'required', 'Missing end time.');
  for (const [time, which] of [
    [start, 'start'],
    [end, 'end'],
  ] as const) {
    if (time.timeZone && !IANAZone.isValidZone(time.timeZone))
      throw new CalendarRefusal(400, 'invalid', `Invalid time zone definition for ${which} time.`);
    if (time.date && time.dateTime) throw new CalendarRefusal(400, 'invalid', `Invalid ${which} time.`);
  }
  if (Boolean(start.date) !== Boolean(end.date))
    throw new CalendarRefusal(400, 'invalid', 'Start and end times must either both be date or both be dateTime.');
  const zone = start.timeZone ?? 'UTC';
  if (instantOf(end, zone) <= instantOf(start, zone))
    throw new CalendarRefusal(400, 'timeRangeEmpty', 'The specified time range is empty.');
  if ((event.recurrence ?? []).length > 0) {
    if (start.dateTime && !start.timeZone) throw new CalendarRefusal(400, 'invalid', 'Missing time zone definition for start time.');
    try {
      ruleSet(event.recurrence!, instantOf(start, zone));
    } catch (error) {
      if (error instanceof InvalidRecurrence) throw new CalendarRefusal(400, 'invalid', 'Invalid recurrence rule.');
      throw error;
    }
  }
}

/** The instance id of a series' start: the series id and the start in UTC (a date for all-day events). */
export function instanceId(seriesId: string, at: DateTime, allDay: boolean): string {
  return `${seriesId}_${allDay ? at.toFormat('yyyyMMdd') : at.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'")}`;
}

/** One instance of a series, as the platform shows an instance nobody changed. */
export function instanceOf(series: StoredEvent, at: DateTime, zone: string): StoredEvent {
  const allDay = Boolean(series.start!.date);
  const first = instantOf(series.start!, zone);
  const length = instantOf(series.end!, zone).diff(first);
  const end = allDay ? at.plus({ days: Math.round(length.as('days')) }) : at.plus(length);
  const time = (when: DateTime): EventTime =>
    allDay ? { date: when.toISODate()! } : { dateTime: when.toISO({ suppressMilliseconds: true })!, timeZone: zone };
  const { recurrence: _recurrence, ...rest } = series;
  return {
    ...rest,
    id: instanceId(series.id, at, allDay),
    recurringEventId: series.id,
    start: time(at),
    end: time(end),
    originalStartTime: time(at),
  };
}

/** The series behind an instance id and that instance, if the id names a start of a series the calendar has. */
export function findInstance(events: Map<string, StoredEvent>, id: string, calendar: SandboxCalendar): StoredEvent | undefined {
  const match = INSTANCE_ID.exec(id);
  const series = match ? events.get(match[1]!) : undefined;
  if (!match || !series?.recurrence?.length || series.status === 'cancelled') return undefined;
  const zone = zoneOf(series, calendar);
  const allDay = Boolean(series.start!.date);
  const at = allDay
    ? DateTime.fromFormat(match[2]!, 'yyyyMMdd', { zone })
    : DateTime.fromFormat(match[2]!, "yyyyMMdd'T'HHmmss'Z'", { zone: 'UTC' }).setZone(zone);
  if (!at.isValid) return undefined;
  const found = starts(series.recurrence, instantOf(series.start!, zone), at, at.plus({ seconds: 1 })).find((start) => +start === +at);
  return found ? instanceOf(series, found, zone) : undefined;
}

/** What a window lists: single events, and the instances of series (changed ones as changed) overlapping it. */
export function windowEvents(
  events: Map<string, StoredEvent>,
  calendar: SandboxCalendar,
  from: DateTime,
  to: DateTime,
): Array<{ event: StoredEvent; start: DateTime }> {
  const listed: Array<{ event: StoredEvent; start: DateTime }> = [];
  const overlaps = (event: StoredEvent) => {
    const zone = zoneOf(event, calendar);
    const start = instantOf(event.start!, zone);
    return instantOf(event.end!, zone) > from && start < to ? start : null;
  };
  for (const event of events.values()) {
    if (event.status === 'cancelled') continue;
    if (event.recurringEventId) {
      if (events.get(event.recurringEventId)?.status === 'cancelled') continue;
    } else if (event.recurrence?.length) {
      const zone = zoneOf(event, calendar);
      const first = instantOf(event.start!, zone);
      const length = instantOf(event.end!, zone).diff(first);
      for (const at of starts(event.recurrence, first, from.minus(length), to)) {
        const instance = instanceOf(event, at, zone);
        if (events.has(instance.id)) continue; // Changed or cancelled: the exception stands for it.
        const start = overlaps(instance);
        if (start) listed.push({ event: instance, start });
      }
      continue;
    }
    const start = overlaps(event);
    if (start) listed.push({ event, start });
  }
  return listed.sort((a, b) => +a.start - +b.start || a.event.id.localeCompare(b.event.id));
}

/** Words of the event a `q` search looks in. */
export function matches(event: StoredEvent, q: string): boolean {
  const words = [event.summary, event.description, event.location, ...(event.attendees ?? []).flatMap((a) => [a.email, a.displayName])];
  return words.some((word) => word?.toLowerCase().includes(q.toLowerCase()));
}
