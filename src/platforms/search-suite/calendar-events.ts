import {
  type CalendarEventChanges,
  type CalendarEventInput,
  type CalendarEvents,
  EventChanged,
  EventIdTaken,
  EventNotFound,
  type EventPage,
  type PlatformCalendar,
  type PlatformCalendarEvent,
  type SendUpdates,
  type SyncPage,
  type SyncQuery,
  SyncTokenExpired,
  type WindowQuery,
  type WriteConditions,
} from '../capabilities/calendar.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';
import { calendarOf, eventBody, eventOf, type GoogleCalendarListEntry, type GoogleEvent } from './calendar-mapping.js';
import { google } from './client.js';

/** The permission the connect flow asks for with `include=calendar`. */
export const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar';

interface GoogleEventList {
  items?: GoogleEvent[];
  nextPageToken?: string;
  nextSyncToken?: string;
}

/** The most calendars a person is shown: the calendar list's own page limit, times a few pages. */
const CALENDAR_PAGES = 4;

/**
 * Calendar v3 events (`/calendars/{calendarId}/events`) and the calendar list. Its statuses that mean something
 * to the caller: 404 no such event or calendar, 409 an insert's id taken, 410 a sync token expired (or an
 * event deleted already), 412 an `If-Match` not met.
 */
export class GoogleCalendarEvents implements CalendarEvents {
  /** calendarList needs the whole calendar scope (`calendar.events` alone reaches events, not the list). */
  readonly scopes = [CALENDAR_SCOPE];

  /** `apiUrl`: the base of Calendar v3 (`https://www.googleapis.com/calendar/v3`). */
  constructor(private readonly apiUrl: string) {}

  async calendars(account: AdapterAccount): Promise<PlatformCalendar[]> {
    const calendars: PlatformCalendar[] = [];
    let pageToken: string | undefined;
    for (let page = 0; page < CALENDAR_PAGES; page += 1) {
      const params = new URLSearchParams({ maxResults: '250', ...(pageToken ? { pageToken } : {}) });
      const listed = await google<{ items?: GoogleCalendarListEntry[]; nextPageToken?: string }>(
        `${this.apiUrl}/users/me/calendarList?${params}`,
        account.credentials.accessToken,
      );
      calendars.push(...(listed.items ?? []).map(calendarOf));
      pageToken = listed.nextPageToken;
      if (!pageToken) break;
    }
    return calendars.sort((a, b) => Number(b.primary) - Number(a.primary));
  }

  async window(account: AdapterAccount, calendarId: string, query: WindowQuery): Promise<EventPage> {
    const params = new URLSearchParams({
      singleEvents: 'true',
      orderBy: 'startTime',
      maxResults: String(query.limit),
      timeMin: query.timeMin,
    });
    if (query.timeMax) params.set('timeMax', query.timeMax);
    if (query.q) params.set('q', query.q);
    if (query.pageToken) params.set('pageToken', query.pageToken);
    const listed = await this.call(calendarId, null, () =>
      google<GoogleEventList>(`${this.events(calendarId)}?${params}`, account.credentials.accessToken),
    );
    return { items: (listed.items ?? []).map(eventOf), nextPageToken: listed.nextPageToken ?? null };
  }

  /**
   * The platform lets no filter (time, text, order) combine with a sync token, so a sync is the whole calendar.
   * Series come once, not expanded: an expanded open-ended series would never end. Deleted events come as
   * cancelled in the changes; a full sync leaves them out but keeps the cancelled instances of a series.
   */
  async sync(account: AdapterAccount, calendarId: string, query: SyncQuery): Promise<SyncPage> {
    const params = new URLSearchParams({ maxResults: String(query.limit) });
    if (query.pageToken) params.set('pageToken', query.pageToken);
    else if (query.syncToken) params.set('syncToken', query.syncToken);
    const listed = await this.call(calendarId, null, () =>
      google<GoogleEventList>(`${this.events(calendarId)}?${params}`, account.credentials.accessToken),
    ).catch((error: unknown) => {
      if (error instanceof PlatformError && error.details.status === 410) throw new SyncTokenExpired(error.message);
      throw error;
    });
    return {
      items: (listed.items ?? []).map(eventOf),
      nextPageToken: listed.nextPageToken ?? null,
      nextSyncToken: listed.nextSyncToken ?? null,
    };
  }

  async get(account: AdapterAccount, calendarId: string, eventId: string): Promise<PlatformCalendarEvent> {
    const event = await this.call(calendarId, eventId, () =>
      google<GoogleEvent>(this.event(calendarId, eventId), account.credentials.accessToken),
    );
    return eventOf(event);
  }

  async insert(
    account: AdapterAccount,
    calendarId: string,
    input: CalendarEventInput,
    id: string,
    sendUpdates: SendUpdates,
  ): Promise<PlatformCalendarEvent> {
    const event = await this.call(calendarId, null, () =>
      // conferenceDataVersion=1: without it the platform ignores a request for a meeting.
      google<GoogleEvent>(
        `${this.events(calendarId)}?${new URLSearchParams({ sendUpdates, conferenceDataVersion: '1' })}`,
        account.credentials.accessToken,
        {
          method: 'POST',
          json: { ...eventBody(input, false, id), id },
        },
      ),
    ).catch((error: unknown) => {
      if (error instanceof PlatformError && error.details.status === 409) throw new EventIdTaken(id);
      throw error;
    });
    return eventOf(event);
  }

  async patch(
    account: AdapterAccount,
    calendarId: string,
    eventId: string,
    changes: CalendarEventChanges,
    conditions: WriteConditions,
  ): Promise<PlatformCalendarEvent> {
    const event = await this.call(calendarId, eventId, () =>
      google<GoogleEvent>(
        `${this.event(calendarId, eventId)}?${new URLSearchParams({ sendUpdates: conditions.sendUpdates })}`,
        account.credentials.accessToken,
        { method: 'PATCH', json: eventBody(changes, true), headers: conditions.ifMatch ? { 'If-Match': conditions.ifMatch } : {} },
      ),
    );
    return eventOf(event);
  }

  async delete(account: AdapterAccount, calendarId: string, eventId: string, conditions: WriteConditions): Promise<void> {
    await this.call(calendarId, eventId, () =>
      google(
        `${this.event(calendarId, eventId)}?${new URLSearchParams({ sendUpdates: conditions.sendUpdates })}`,
        account.credentials.accessToken,
        {
          method: 'DELETE',
          headers: conditions.ifMatch ? { 'If-Match': conditions.ifMatch } : {},
        },
      ).catch((error: unknown) => {
        // Deleted already (410): what was asked for is done.
        if (!(error instanceof PlatformError && error.details.status === 410)) throw error;
      }),
    );
  }

  private events(calendarId: string): string {
    return `${this.apiUrl}/calendars/${encodeURIComponent(calendarId)}/events`;
  }

  private event(calendarId: string, eventId: string): string {
    return `${this.events(calendarId)}/${encodeURIComponent(eventId)}`;
  }

  /**
   * The statuses that name a calendar's or event's state as such: 404 none, 410 an event deleted (a sync's 410
   * is the sync's to read), 412 an `If-Match` not met. A 403 for want of access to one calendar (read-only, not
   * shared) says nothing of the account's grant, so it must not send the account to reconnection.
   */
  private async call<T>(calendarId: string, eventId: string | null, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      const status = error.details.status;
      if (status === 410 && eventId) throw new EventNotFound(`event ${eventId} on calendar ${calendarId} (it was deleted)`);
      if (status === 404)
        throw new EventNotFound(eventId ? `event ${eventId} on calendar ${calendarId}` : `calendar ${calendarId} for this account`);
      if (status === 412 && eventId) throw new EventChanged(eventId);
      if (status === 403 && error.details.platformCode === 'requiredAccessLevel') {
        throw new PlatformError('invalid_request', `the account may not change calendar ${calendarId}: ${error.message}`, error.details);
      }
      throw error;
    }
  }
}
