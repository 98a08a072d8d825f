import { expect } from 'chai';
import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';
import { authorise, connectedAccountIds } from './oauth.js';
import { People } from './people.js';

export interface SandboxCalendar {
  id: string;
  summary: string;
  timeZone: string;
  accessRole: 'owner' | 'writer' | 'reader';
}

/** An event as the platform keeps it (Calendar v3's Event). */
export interface PlatformEvent {
  id: string;
  etag: string;
  status: string;
  summary?: string;
  recurringEventId?: string;
  [member: string]: unknown;
}

/** Who the platform told of a write: `guests` were emailed. */
export interface CalendarUpdate {
  eventId: string;
  method: 'insert' | 'patch' | 'delete';
  sendUpdates: string;
  guests: string[];
}

export type CalendarFault = { kind: 'rate_limited' | 'too_many_requests' | 'server_error' | 'drop_after_insert' };

/** The search suite's calendar owner: their calendars, what they do in the calendar's own app, and its faults. */
export class CalendarPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'search_suite');
  }

  /** A calendar the owner made, or a team's shared with them (`accessRole`), besides their own. */
  newCalendar(options: Partial<Omit<SandboxCalendar, 'id'>> = {}): Promise<SandboxCalendar> {
    return this.post('calendars', options);
  }

  /** The owner changes an event in the calendar's own app: its etag changes. */
  editInApp(calendarId: string, eventId: string, changes: Record<string, unknown>): Promise<PlatformEvent> {
    return this.post('calendar/edit-in-app', { calendarId, eventId, changes });
  }

  /** Every sync token of the calendar given out so far expires (the platform answers 410 to them). */
  async expireSyncTokens(calendarId: string): Promise<void> {
    await this.post('calendar/expire-sync-tokens', { calendarId });
  }

  /** Everything the calendar holds (deleted events as cancelled), and who was told of each write. */
  onPlatform(calendarId: string): Promise<{ events: PlatformEvent[]; updates: CalendarUpdate[] }> {
    return this.get('calendar/events', { calendarId });
  }

  /** The next Calendar API calls meet these faults. */
  async failNext(faults: CalendarFault[]): Promise<void> {
    await this.post('calendar/faults', { faults });
  }
}

/** The sandbox owner's own calendar (`owner@acme.example`), shared by every test's owner. */
export const PRIMARY_CALENDAR = 'owner@acme.example';

/** Connects search_suite with `include=calendar` for the owner: the calendar account's id. */
export async function connectCalendar(app: TestApp, owner: TestOwner): Promise<string> {
  const ids = connectedAccountIds(await authorise(app, owner, 'search_suite', { query: '&include=calendar' }));
  const accounts = await app.api.get('/accounts', { token: owner.key });
  const calendar = accounts.body.data.find(
    (account: { id: string; platform: string }) => ids.includes(account.id) && account.platform === 'calendar',
  );
  expect(calendar, 'a calendar account').to.not.equal(undefined);
  return calendar.id;
}
