import { type FieldError, InvalidCursorError, ValidationFailedError } from '../../lib/errors.js';
import { cursorForm } from '../../lib/pagination.js';
import type { components } from '../../../generated/api.js';
import {
  type CalendarEventChanges,
  type CalendarEventInput,
  EventIdTaken,
  type PlatformCalendarEvent,
  type SendUpdates,
  type SyncPage,
  SyncTokenExpired,
} from '../../platforms/capabilities/calendar.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { clientEventId } from './event-id.js';
import { checkEvent } from './input.js';
import { onCalendar, type OnCalendar } from './on-calendar.js';

type CalendarEvent = components['schemas']['CalendarEvent'];
type CalendarEventList = components['schemas']['CalendarEventList'];

export interface ListQuery {
  calendarId?: string;
  timeMin?: string;
  timeMax?: string;
  q?: string;
  sync?: boolean;
  syncCursor?: string;
  limit?: number;
  cursor?: string;
}

export interface WriteOptions {
  calendarId?: string;
  sendUpdates: SendUpdates;
}

const present =
  (accountId: string) =>
  (event: PlatformCalendarEvent): CalendarEvent => ({ accountId, ...event });

/** Where a listing goes on: the platform's page token of one calendar, with the way and the query it belongs to. */
const PAGE = cursorForm('calpage1', {
  way: ['window', 'sync'],
  calendarId: 'text',
  pageToken: 'platformCursor',
  'timeMin?': 'dateTime',
  'timeMax?': 'dateTime',
  'q?': 'text',
});
/** A sync's position, which clients keep for later syncs (so its form stays): the platform's sync token of one calendar. */
const SYNC = cursorForm('calsync1', { calendarId: 'text', syncToken: 'platformCursor' });

/** The page a cursor goes on to, of the query asked for where one is given (the calendar, a window's filters). */
function pagePosition(cursor: string, { calendarId, timeMin, timeMax, q }: ListQuery) {
  const { way, ...position } = PAGE.decode(cursor, { calendarId, timeMin, timeMax, q });
  if (way === 'sync') return { way, calendarId: position.calendarId, pageToken: position.pageToken };
  // A window begins somewhere: one of ours always says where.
  if (position.timeMin === undefined) throw new InvalidCursorError();
  return { way, ...position, timeMin: position.timeMin };
}

/** What a listing asks for, refused before the platform is called when its parts do not go together. */
function listPlan(query: ListQuery) {
  const page = query.cursor ? pagePosition(query.cursor, query) : null;
  const since = query.syncCursor ? SYNC.decode(query.syncCursor, { calendarId: query.calendarId }) : null;
  const syncing = page ? page.way === 'sync' : Boolean(query.sync) || since !== null;
  const errors: FieldError[] = [];
  if (syncing) {
    for (const filter of ['timeMin', 'timeMax', 'q'] as const) {
      if (query[filter] !== undefined) {
        errors.push({
          path: `query/${filter}`,
          code: 'sync_filter',
          message: `A sync lists the whole calendar; ${filter} does not combine with it.`,
        });
      }
    }
  }
  if (query.sync && since)
    errors.push({
      path: 'query/sync',
      code: 'sync_filter',
      message: 'Give sync=true to start a sync, or syncCursor to continue one, not both.',
    });
  if (page && since)
    errors.push({
      path: 'query/cursor',
      code: 'sync_filter',
      message: 'Give cursor for the next page, or syncCursor for the changes since a sync, not both.',
    });
  if (query.timeMax && Date.parse(query.timeMax) <= Date.parse(query.timeMin ?? new Date().toISOString())) {
    errors.push({ path: 'query/timeMax', code: 'time_order', message: 'timeMax must be after timeMin (which defaults to now).' });
  }
  if (errors.length > 0) throw new ValidationFailedError(errors);
  return { page, since, syncing };
}

/** A page of a sync; a sync token the platform has forgotten starts the sync over, and the answer says so. */
async function syncPage({ events, account, calendarId }: OnCalendar, plan: ReturnType<typeof listPlan>, limit: number) {
  let fullResync = false;
  let page: SyncPage;
  try {
    page = await events.sync(account, calendarId, { pageToken: plan.page?.pageToken, syncToken: plan.since?.syncToken, limit });
  } catch (error) {
    if (!(error instanceof SyncTokenExpired)) throw error;
    fullResync = true;
    page = await events.sync(account, calendarId, { limit });
  }
  return {
    items: page.items,
    nextCursor: page.nextPageToken ? PAGE.encode({ way: 'sync', calendarId, pageToken: page.nextPageToken }) : null,
    syncCursor: page.nextSyncToken ? SYNC.encode({ calendarId, syncToken: page.nextSyncToken }) : null,
    fullResync,
  };
}

export async function listEvents(
  services: Services,
  principal: Principal,
  accountId: string,
  query: ListQuery,
): Promise<CalendarEventList> {
  const plan = listPlan(query);
  const limit = query.limit ?? 20;
  const calendarId = plan.page?.calendarId ?? plan.since?.calendarId ?? query.calendarId;
  return onCalendar(services, principal, accountId, calendarId, async (on) => {
    const show = present(on.row.id);
    if (plan.syncing) {
      const { items, ...rest } = await syncPage(on, plan, limit);
      return { data: items.map(show), ...rest };
    }
    const { timeMin, timeMax, q } =
      plan.page?.way === 'window' ? plan.page : { timeMin: query.timeMin ?? new Date().toISOString(), timeMax: query.timeMax, q: query.q };
    const window = { timeMin, timeMax, q };
    const page = await on.events.window(on.account, on.calendarId, { ...window, limit, pageToken: plan.page?.pageToken });
    return {
      data: page.items.map(show),
      nextCursor: page.nextPageToken
        ? PAGE.encode({ way: 'window', calendarId: on.calendarId, pageToken: page.nextPageToken, ...window })
        : null,
      syncCursor: null,
      fullResync: false,
    };
  });
}

export function listCalendars(services: Services, principal: Principal, accountId: string) {
  return onCalendar(services, principal, accountId, undefined, ({ events, account }) => events.calendars(account));
}

export function getEvent(services: Services, principal: Principal, accountId: string, eventId: string, calendarId?: string) {
  return onCalendar(services, principal, accountId, calendarId, async ({ events, account, row, calendarId: calendar }) =>
    present(row.id)(await events.get(account, calendar, eventId)),
  );
}

/**
 * The platform's event id is derived from the write's key (an Idempotency-Key's, see writeKey): a retry after a
 * lost answer is refused by the platform as a duplicate (409), and the event the first attempt made is read and
 * answered instead.
 */
export async function createEvent(
  services: Services,
  principal: Principal,
  accountId: string,
  input: CalendarEventInput,
  options: WriteOptions & { writeKey: string },
): Promise<CalendarEvent> {
  checkEvent(input, true);
  return onCalendar(services, principal, accountId, options.calendarId, async ({ events, account, row, calendarId }) => {
    const id = clientEventId({ ownerId: principal.ownerId, accountId: row.id, calendarId, key: options.writeKey, body: input });
    try {
      return present(row.id)(await events.insert(account, calendarId, input, id, options.sendUpdates));
    } catch (error) {
      if (!(error instanceof EventIdTaken)) throw error;
      return present(row.id)(await events.get(account, calendarId, id));
    }
  });
}

export async function updateEvent(
  services: Services,
  principal: Principal,
  accountId: string,
  eventId: string,
  changes: CalendarEventChanges,
  options: WriteOptions & { ifMatch?: string },
): Promise<CalendarEvent> {
  checkEvent(changes, false);
  return onCalendar(
    services,
    principal,
    accountId,
    options.calendarId,
    async ({ events, account, row, calendarId }) =>
      present(row.id)(
        await events.patch(account, calendarId, eventId, changes, { ifMatch: options.ifMatch, sendUpdates: options.sendUpdates }),
      ),
    { eventId, ifMatch: options.ifMatch },
  );
}

export async function deleteEvent(
  services: Services,
  principal: Principal,
  accountId: string,
  eventId: string,
  options: WriteOptions & { ifMatch?: string },
): Promise<void> {
  await onCalendar(
    services,
    principal,
    accountId,
    options.calendarId,
    ({ events, account, calendarId }) =>
      events.delete(account, calendarId, eventId, { ifMatch: options.ifMatch, sendUpdates: options.sendUpdates }),
    { eventId, ifMatch: options.ifMatch },
  );
}
