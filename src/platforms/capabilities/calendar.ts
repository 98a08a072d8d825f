import type { components } from '../../../generated/api.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';

type Schemas = components['schemas'];

/** An event as the platform keeps it, in the contract's words (the area adds which account it is on). */
export type PlatformCalendarEvent = Omit<Schemas['CalendarEvent'], 'accountId'>;
/** A calendar the account's owner can see, as the platform lists it. */
export type PlatformCalendar = Schemas['Calendar'];
/** A new event, and the members of an event to change (`null` clears a text member). */
export type CalendarEventInput = Schemas['CalendarEventCreate'];
export type CalendarEventChanges = Schemas['CalendarEventUpdate'];
export type SendUpdates = 'all' | 'externalOnly' | 'none';

export interface EventPage {
  items: PlatformCalendarEvent[];
  /** The platform's token of the next page; null on the last. */
  nextPageToken: string | null;
}

/** A page of a sync: the last page carries the token that asks for the changes made after it. */
export interface SyncPage extends EventPage {
  nextSyncToken: string | null;
}

export interface WindowQuery {
  timeMin: string;
  timeMax?: string;
  q?: string;
  limit: number;
  pageToken?: string;
}

/** Where a sync stands: from the start (neither), the changes since a sync token, or a page of either. */
export interface SyncQuery {
  syncToken?: string;
  pageToken?: string;
  limit: number;
}

/** A change made only if the event is still at this version (its etag); how guests hear of it. */
export interface WriteConditions {
  ifMatch?: string;
  sendUpdates: SendUpdates;
}

/**
 * Events of the calendars an account reaches. Ids are the platform's; `calendarId` is one of `calendars()`.
 * Failures the caller acts on are the classes below; the rest are PlatformErrors as everywhere.
 */
export interface CalendarEvents {
  /** The platform permissions (scopes) the account must have been granted for these. */
  readonly scopes: readonly string[];
  calendars(account: AdapterAccount): Promise<PlatformCalendar[]>;
  /** Events overlapping a window, recurring ones expanded into instances, in start order; cancelled ones left out. */
  window(account: AdapterAccount, calendarId: string, query: WindowQuery): Promise<EventPage>;
  /** Every event (series unexpanded, their changed instances apart), or the changes since a sync token, cancelled ones included. */
  sync(account: AdapterAccount, calendarId: string, query: SyncQuery): Promise<SyncPage>;
  get(account: AdapterAccount, calendarId: string, eventId: string): Promise<PlatformCalendarEvent>;
  /** `id`: the client's own id of the event, so that a repeated insert is refused rather than made twice. */
  insert(
    account: AdapterAccount,
    calendarId: string,
    event: CalendarEventInput,
    id: string,
    sendUpdates: SendUpdates,
  ): Promise<PlatformCalendarEvent>;
  patch(
    account: AdapterAccount,
    calendarId: string,
    eventId: string,
    changes: CalendarEventChanges,
    conditions: WriteConditions,
  ): Promise<PlatformCalendarEvent>;
  /** Deleting an event deleted already succeeds. */
  delete(account: AdapterAccount, calendarId: string, eventId: string, conditions: WriteConditions): Promise<void>;
}

/** The sync token is no longer valid (expired, or the calendar's sharing changed): sync again from the start. */
export class SyncTokenExpired extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message, { status: 410 });
    this.name = 'SyncTokenExpired';
  }
}

/** The event is no longer at the version the change was conditional on. */
export class EventChanged extends PlatformError {
  constructor(eventId: string) {
    super('invalid_request', `event ${eventId} changed since that version`, { status: 412 });
    this.name = 'EventChanged';
  }
}

/** The calendar has no such event (or the account cannot see the calendar). */
export class EventNotFound extends PlatformError {
  /** `what`: the event or calendar not found, in words (`event … on calendar …`). */
  constructor(readonly what: string) {
    super('invalid_request', `the platform has no ${what}`, { status: 404 });
    this.name = 'EventNotFound';
  }
}

/** An insert named an id the calendar has already: an earlier attempt made it. */
export class EventIdTaken extends PlatformError {
  constructor(eventId: string) {
    super('invalid_request', `the calendar has an event ${eventId} already`, { status: 409 });
    this.name = 'EventIdTaken';
  }
}
