import { DateTime } from 'luxon';
import type { CalendarEventChanges, CalendarEventInput, PlatformCalendar, PlatformCalendarEvent } from '../capabilities/calendar.js';

/** The Calendar v3 resources as the API sends them (members it may leave out are optional). */
export interface GoogleEventTime {
  dateTime?: string;
  date?: string;
  timeZone?: string;
}
export interface GoogleEvent {
  id: string;
  etag: string;
  status?: 'confirmed' | 'tentative' | 'cancelled';
  iCalUID?: string;
  htmlLink?: string;
  created?: string;
  updated?: string;
  summary?: string;
  description?: string;
  location?: string;
  start?: GoogleEventTime;
  end?: GoogleEventTime;
  originalStartTime?: GoogleEventTime;
  recurringEventId?: string;
  recurrence?: string[];
  visibility?: PlatformCalendarEvent['visibility'];
  transparency?: PlatformCalendarEvent['transparency'];
  organizer?: { email?: string; displayName?: string; self?: boolean };
  attendees?: Array<{
    email: string;
    displayName?: string;
    optional?: boolean;
    organizer?: boolean;
    self?: boolean;
    responseStatus?: PlatformCalendarEvent['attendees'][number]['responseStatus'];
  }>;
  reminders?: PlatformCalendarEvent['reminders'];
  hangoutLink?: string;
  conferenceData?: { entryPoints?: Array<{ entryPointType?: string; uri?: string }> };
}
export interface GoogleCalendarListEntry {
  id: string;
  summary?: string;
  summaryOverride?: string;
  description?: string;
  timeZone?: string;
  primary?: boolean;
  accessRole: PlatformCalendar['accessRole'];
}

/** An instant in UTC, as the contract answers times (`2026-12-01T08:00:00Z`). */
function utc(dateTime: string): string {
  return DateTime.fromISO(dateTime, { setZone: true }).toUTC().toISO({ suppressMilliseconds: true })!;
}

function timeOf(time: GoogleEventTime | undefined): PlatformCalendarEvent['start'] {
  return {
    dateTime: time?.dateTime ? utc(time.dateTime) : null,
    date: time?.date ?? null,
    timeZone: time?.timeZone ?? null,
  };
}

export function eventOf(event: GoogleEvent): PlatformCalendarEvent {
  const video = event.conferenceData?.entryPoints?.find((entry) => entry.entryPointType === 'video')?.uri;
  return {
    id: event.id,
    iCalUID: event.iCalUID ?? null,
    summary: event.summary ?? null,
    description: event.description ?? null,
    location: event.location ?? null,
    start: timeOf(event.start),
    end: timeOf(event.end),
    allDay: Boolean(event.start?.date),
    status: event.status ?? 'confirmed',
    visibility: event.visibility ?? 'default',
    transparency: event.transparency ?? 'opaque',
    organizer: event.organizer?.email
      ? { email: event.organizer.email, displayName: event.organizer.displayName ?? null, self: event.organizer.self ?? false }
      : null,
    attendees: (event.attendees ?? []).map((attendee) => ({
      email: attendee.email,
      displayName: attendee.displayName ?? null,
      optional: attendee.optional ?? false,
      organizer: attendee.organizer ?? false,
      self: attendee.self ?? false,
      responseStatus: attendee.responseStatus ?? 'needsAction',
    })),
    recurrence: event.recurrence ?? [],
    recurringEventId: event.recurringEventId ?? null,
    originalStart: event.originalStartTime ? timeOf(event.originalStartTime) : null,
    reminders: event.reminders ?? { useDefault: true },
    conferenceUrl: event.hangoutLink ?? video ?? null,
    htmlLink: event.htmlLink ?? null,
    etag: event.etag,
    createdAt: event.created ?? null,
    updatedAt: event.updated ?? null,
  };
}

export function calendarOf(entry: GoogleCalendarListEntry): PlatformCalendar {
  return {
    id: entry.id,
    summary: entry.summaryOverride ?? entry.summary ?? null,
    description: entry.description ?? null,
    timeZone: entry.timeZone ?? null,
    primary: entry.primary ?? false,
    accessRole: entry.accessRole,
  };
}

/**
 * A start or end as the API takes it. A patch merges objects member by member, so the other kind is cleared
 * explicitly (a timed event made all-day must lose its `dateTime`); a zone left out keeps the event's.
 */
function timeBody(time: CalendarEventInput['start'], patch: boolean): Record<string, string | null> {
  if ('date' in time) return { date: time.date, ...(patch ? { dateTime: null, timeZone: null } : {}) };
  return { dateTime: time.dateTime, ...(time.timeZone ? { timeZone: time.timeZone } : {}), ...(patch ? { date: null } : {}) };
}

/**
 * Our event (or changes to one) as an Event body: members left out are not sent; `null` clears. A new meeting is
 * asked for under `conferenceRequestId`.
 */
export function eventBody(
  input: CalendarEventInput | CalendarEventChanges,
  patch: boolean,
  conferenceRequestId = '',
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const member of ['summary', 'description', 'location', 'status', 'visibility', 'transparency', 'recurrence', 'reminders'] as const) {
    if (input[member] !== undefined) body[member] = input[member];
  }
  if (input.start) body.start = timeBody(input.start, patch);
  if (input.end) body.end = timeBody(input.end, patch);
  if ('createConference' in input && input.createConference) {
    // The request id makes the platform create one meeting however often the same event is sent.
    body.conferenceData = { createRequest: { requestId: conferenceRequestId, conferenceSolutionKey: { type: 'hangoutsMeet' } } };
  }
  if (input.attendees) {
    body.attendees = input.attendees.map((attendee) => ({
      email: attendee.email,
      ...(attendee.displayName ? { displayName: attendee.displayName } : {}),
      ...(attendee.optional ? { optional: true } : {}),
    }));
  }
  return body;
}
