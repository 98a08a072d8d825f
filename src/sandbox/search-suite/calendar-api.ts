import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { DateTime } from 'luxon';
import { answer, CalendarBook, isWritable, merge, present, refuse, writable } from './calendar-book.js';
import { mountCalendarPeople } from './calendar-people.js';
import {
  BASE32HEX_ID,
  type CalendarState,
  CalendarRefusal,
  checkTimes,
  instantOf,
  matches,
  type SandboxCalendar,
  type StoredEvent,
  windowEvents,
  zoneOf,
} from './calendar-store.js';

const SCOPE = 'https://www.googleapis.com/auth/calendar';

type Authorised = (ctx: RouterContext, scope: string) => boolean;

/** Sync tokens and page tokens: opaque to clients, as the platform's are. */
const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
function untoken<T>(raw: string): T | null {
  try {
    return JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}

/** A video meeting made for an event that asks for one (with `conferenceDataVersion=1`), as the platform attaches it. */
function meeting(requestId: string) {
  const code = createHash('sha256')
    .update(requestId)
    .digest('hex')
    .replace(/[0-9]/g, (digit) => 'abcdefghij'[Number(digit)]!);
  const uri = `https://meet.sandbox.example/${code.slice(0, 3)}-${code.slice(3, 7)}-${code.slice(7, 10)}`;
  return {
    hangoutLink: uri,
    conferenceData: {
      createRequest: { requestId, conferenceSolutionKey: { type: 'hangoutsMeet' }, status: { statusCode: 'success' } },
      entryPoints: [{ entryPointType: 'video', uri, label: uri.replace('https://', '') }],
      conferenceSolution: { key: { type: 'hangoutsMeet' }, name: 'Meeting' },
    },
  };
}

/**
 * Calendar v3 for the sandbox's calendars: the calendar list, and events per calendar with etags, `If-Match`
 * (412), client-chosen ids (409 when taken), recurrence expanded into instances and changed instances kept as
 * exceptions, windows (`singleEvents` + `orderBy=startTime`), syncs with sync tokens that expire (410), deletes
 * kept as cancelled events for syncs, and quota errors. Starts from what it kept; returns what it keeps.
 */
export function mountCalendar(
  router: Router,
  stored: { restored: CalendarState | undefined; saveNow(): void },
  authorised: Authorised,
): () => CalendarState {
  const book = new CalendarBook(stored.restored ?? CalendarBook.empty());
  const { state, faults } = book;
  const base = '/search_suite/calendar/v3';

  /** The calendar of the request, after authentication and the next fault; undefined once answered. */
  const open = (ctx: RouterContext, write = false): SandboxCalendar | undefined => {
    if (!authorised(ctx, SCOPE)) return undefined;
    const fault = faults[0]?.kind === 'drop_after_insert' ? undefined : faults.shift();
    if (fault?.kind === 'rate_limited') return void refuse(ctx, 403, 'rateLimitExceeded', 'Rate Limit Exceeded');
    if (fault?.kind === 'too_many_requests') return void refuse(ctx, 429, 'rateLimitExceeded', 'Rate Limit Exceeded');
    if (fault?.kind === 'server_error') return void refuse(ctx, 500, 'backendError', 'Backend Error');
    const calendar = book.calendar(ctx.params.calendarId!);
    if (!calendar) return void refuse(ctx, 404, 'notFound', 'Not Found');
    if (write && calendar.accessRole === 'reader')
      return void refuse(ctx, 403, 'requiredAccessLevel', 'You need to have writer access to this calendar.');
    return calendar;
  };
  const told = (calendar: SandboxCalendar, event: StoredEvent, method: string, sendUpdates: unknown) => {
    const mode = typeof sendUpdates === 'string' ? sendUpdates : 'none';
    const guests = mode === 'none' ? [] : (event.attendees ?? []).map((attendee) => attendee.email);
    state.updates.push({ calendarId: calendar.id, eventId: event.id, method, sendUpdates: mode, guests });
  };
  const precondition = (ctx: RouterContext, event: StoredEvent) => {
    const wanted = ctx.get('If-Match');
    if (wanted && wanted !== '*' && wanted !== event.etag) throw new CalendarRefusal(412, 'conditionNotMet', 'Precondition Failed');
  };

  router.get('/search_suite/calendar/v3/users/me/calendarList', (ctx) => {
    if (!authorised(ctx, SCOPE)) return;
    ctx.body = {
      kind: 'calendar#calendarList',
      items: [...state.calendars.values()].map((c) => ({ kind: 'calendar#calendarListEntry', ...c })),
    };
  });
  router.get('/search_suite/calendar/v3/users/me/calendarList/:calendarId', (ctx) => {
    if (!authorised(ctx, SCOPE)) return;
    const calendar = book.calendar(ctx.params.calendarId!);
    if (!calendar) return refuse(ctx, 404, 'notFound', 'Not Found');
    ctx.body = { kind: 'calendar#calendarListEntry', ...calendar };
  });

  router.get(`${base}/calendars/:calendarId/events`, (ctx) => {
    const calendar = open(ctx);
    if (!calendar) return;
    answer(ctx, () => {
      const q = ctx.query as Record<string, string | undefined>;
      const size = Math.min(Number(q.maxResults ?? 250) || 250, 2500);
      const page = q.pageToken
        ? untoken<{ offset: number; upTo: number; since: number | null; window: Record<string, string> | null }>(q.pageToken)
        : null;
      if (q.pageToken && !page) throw new CalendarRefusal(400, 'invalid', 'Invalid page token.');
      if (q.syncToken !== undefined && (q.timeMin || q.timeMax || q.q || q.orderBy || q.updatedMin || q.iCalUID))
        throw new CalendarRefusal(
          400,
          'invalid',
          'Sync token cannot be combined with timeMin, timeMax, q, orderBy, updatedMin or iCalUID.',
        );
      if (q.orderBy === 'startTime' && q.singleEvents !== 'true')
        throw new CalendarRefusal(400, 'invalid', 'The requested ordering is not available for the particular query.');
      const events = book.events(calendar);
      if (q.singleEvents === 'true') {
        const window = page?.window ?? { timeMin: q.timeMin ?? '', timeMax: q.timeMax ?? '', q: q.q ?? '' };
        const from = window.timeMin ? DateTime.fromISO(window.timeMin) : DateTime.now().minus({ years: 1 });
        const to = window.timeMax ? DateTime.fromISO(window.timeMax) : from.plus({ years: 2 });
        if (!from.isValid || !to.isValid) throw new CalendarRefusal(400, 'invalid', 'Bad Request');
        if (to <= from) throw new CalendarRefusal(400, 'timeRangeEmpty', 'The specified time range is empty.');
        const listed = windowEvents(events, calendar, from, to).filter(({ event }) => !window.q || matches(event, window.q));
        const offset = page?.offset ?? 0;
        const more = offset + size < listed.length;
        ctx.body = {
          kind: 'calendar#events',
          summary: calendar.summary,
          timeZone: calendar.timeZone,
          items: listed.slice(offset, offset + size).map(({ event }) => present(event)),
          ...(more ? { nextPageToken: token({ offset: offset + size, upTo: state.changes, since: null, window }) } : {}),
        };
        return;
      }
      // A sync: everything (a full one leaves out deleted events but keeps cancelled instances), or the changes since a token.
      let since: number | null = page ? page.since : null;
      if (!page && q.syncToken !== undefined) {
        const sync = untoken<{ calendarId: string; upTo: number; serial: number }>(q.syncToken);
        if (!sync || sync.calendarId !== calendar.id || sync.serial <= (state.expiredUpTo.get(calendar.id) ?? 0))
          throw new CalendarRefusal(410, 'fullSyncRequired', 'Sync token is no longer valid, a full sync is required.');
        since = sync.upTo;
      }
      const upTo = page?.upTo ?? state.changes;
      const all = [...events.values()]
        .filter(
          (event) =>
            event.changed <= upTo && (since === null ? event.status !== 'cancelled' || event.recurringEventId : event.changed > since),
        )
        .sort((a, b) => a.changed - b.changed);
      const offset = page?.offset ?? 0;
      const more = offset + size < all.length;
      ctx.body = {
        kind: 'calendar#events',
        summary: calendar.summary,
        timeZone: calendar.timeZone,
        items: all.slice(offset, offset + size).map(present),
        ...(more
          ? { nextPageToken: token({ offset: offset + size, upTo, since, window: null }) }
          : { nextSyncToken: token({ calendarId: calendar.id, upTo, serial: ++state.syncTokens }) }),
      };
    });
  });

  router.get(`${base}/calendars/:calendarId/events/:eventId`, (ctx) => {
    const calendar = open(ctx);
    if (calendar) answer(ctx, () => void (ctx.body = present(book.find(calendar, ctx.params.eventId!))));
  });

  router.post(`${base}/calendars/:calendarId/events`, (ctx) => {
    const calendar = open(ctx, true);
    if (!calendar) return;
    answer(ctx, () => {
      const body = (ctx.request.body ?? {}) as Record<string, unknown> & { id?: string };
      const events = book.events(calendar);
      if (body.id !== undefined && !BASE32HEX_ID.test(body.id)) throw new CalendarRefusal(400, 'invalid', 'Invalid resource id value.');
      if (body.id !== undefined && events.has(body.id))
        throw new CalendarRefusal(409, 'duplicate', 'The requested identifier already exists.');
      const input = writable(body) as Partial<StoredEvent>;
      checkTimes(input);
      const id =
        body.id ?? createHash('sha256').update(`${calendar.id}/${state.nextId++}`).digest('hex').replace(/[w-z]/g, 'a').slice(0, 26);
      const now = new Date().toISOString();
      const conference = (body.conferenceData as { createRequest?: { requestId?: string } } | undefined)?.createRequest;
      const event = book.write(calendar, {
        ...input,
        ...(conference?.requestId && ctx.query.conferenceDataVersion === '1' ? meeting(conference.requestId) : {}),
        kind: 'calendar#event',
        id,
        status: input.status === 'tentative' ? 'tentative' : 'confirmed',
        iCalUID: `${id}@sandbox.example`,
        htmlLink: `https://calendar.sandbox.example/event?eid=${Buffer.from(`${id} ${calendar.id}`).toString('base64url')}`,
        created: now,
        organizer: { email: calendar.id, displayName: calendar.summary, self: true },
        attendees: input.attendees?.map((attendee) => ({ ...attendee, responseStatus: 'needsAction' })),
        reminders: input.reminders ?? { useDefault: true },
        sequence: 0,
      });
      told(calendar, event, 'insert', ctx.query.sendUpdates);
      if (faults[0]?.kind === 'drop_after_insert') {
        faults.shift();
        // Made, and the answer never arrives: the connection is cut. Kept now, since no answer ends the request.
        stored.saveNow();
        ctx.respond = false;
        ctx.req.socket.destroy();
        return;
      }
      ctx.body = present(event);
    });
  });

  /**
   * A change to an event: `patch` merges the body into it, `update` (PUT) replaces every writable member with the
   * body's. Either way an instance cannot take a recurrence, and the times are checked again.
   */
  const change = (method: 'patch' | 'update') => (ctx: RouterContext) => {
    const calendar = open(ctx, true);
    if (!calendar) return;
    answer(ctx, () => {
      const current = book.find(calendar, ctx.params.eventId!);
      if (current.status === 'cancelled') throw new CalendarRefusal(410, 'deleted', 'Resource has been deleted');
      precondition(ctx, current);
      const given = writable((ctx.request.body ?? {}) as Record<string, unknown>);
      const kept = Object.fromEntries(Object.entries(current).filter(([key]) => method === 'patch' || !isWritable(key)));
      const next = merge(kept, given) as unknown as StoredEvent;
      if (next.recurringEventId && given.recurrence)
        throw new CalendarRefusal(400, 'invalid', 'Cannot set recurrence on an instance of a recurring event.');
      checkTimes(next);
      if (given.attendees)
        next.attendees = next.attendees?.map((attendee) => ({ ...attendee, responseStatus: attendee.responseStatus ?? 'needsAction' }));
      const event = book.write(calendar, { ...next, status: next.status ?? 'confirmed', sequence: current.sequence + 1 });
      told(calendar, event, method, ctx.query.sendUpdates);
      ctx.body = present(event);
    });
  };
  router.patch(`${base}/calendars/:calendarId/events/:eventId`, change('patch'));
  router.put(`${base}/calendars/:calendarId/events/:eventId`, change('update'));

  /** The instances of a recurring event, changed ones as changed, in `timeMin`..`timeMax` (else from its start). */
  router.get(`${base}/calendars/:calendarId/events/:eventId/instances`, (ctx) => {
    const calendar = open(ctx);
    if (!calendar) return;
    answer(ctx, () => {
      const series = book.events(calendar).get(ctx.params.eventId!);
      if (!series || series.status === 'cancelled' || !series.recurrence?.length) throw new CalendarRefusal(404, 'notFound', 'Not Found');
      const q = ctx.query as Record<string, string | undefined>;
      const size = Math.min(Number(q.maxResults ?? 250) || 250, 2500);
      const offset = q.pageToken ? untoken<{ offset: number }>(q.pageToken)?.offset : 0;
      if (offset === undefined) throw new CalendarRefusal(400, 'invalid', 'Invalid page token.');
      const from = q.timeMin ? DateTime.fromISO(q.timeMin) : instantOf(series.start!, zoneOf(series, calendar));
      const to = q.timeMax ? DateTime.fromISO(q.timeMax) : from.plus({ years: 2 });
      if (!from.isValid || !to.isValid) throw new CalendarRefusal(400, 'invalid', 'Bad Request');
      const instances = windowEvents(book.events(calendar), calendar, from, to).filter(({ event }) => event.recurringEventId === series.id);
      ctx.body = {
        kind: 'calendar#events',
        summary: calendar.summary,
        timeZone: calendar.timeZone,
        items: instances.slice(offset, offset + size).map(({ event }) => present(event)),
        ...(offset + size < instances.length ? { nextPageToken: token({ offset: offset + size }) } : {}),
      };
    });
  });

  router.delete(`${base}/calendars/:calendarId/events/:eventId`, (ctx) => {
    const calendar = open(ctx, true);
    if (!calendar) return;
    answer(ctx, () => {
      const current = book.find(calendar, ctx.params.eventId!);
      if (current.status === 'cancelled') throw new CalendarRefusal(410, 'deleted', 'Resource has been deleted');
      precondition(ctx, current);
      const event = book.write(calendar, { ...current, status: 'cancelled', sequence: current.sequence + 1 });
      told(calendar, event, 'delete', ctx.query.sendUpdates);
      ctx.status = 204;
    });
  });

  mountCalendarPeople(router, book);

  return () => state;
}
