import { createHash } from 'node:crypto';
import type Router from '@koa/router';
import { answer, type CalendarBook, type CalendarFault, present, PRIMARY, refuse } from './calendar-book.js';
import type { SandboxCalendar } from './calendar-store.js';

/** What the calendar's owner does outside the API, and what tests may look at or break. */
export function mountCalendarPeople(router: Router, book: CalendarBook): void {
  const { state } = book;

  /** A calendar the owner made or was given (a team's), to choose with calendarId. */
  router.post('/_sandbox/search_suite/calendars', (ctx) => {
    const body = (ctx.request.body ?? {}) as Partial<SandboxCalendar>;
    const id = `c_${createHash('sha256').update(`calendar ${state.nextId++}`).digest('hex').slice(0, 26)}@group.calendar.sandbox.example`;
    const calendar: SandboxCalendar = {
      id,
      summary: body.summary ?? 'Team',
      timeZone: body.timeZone ?? 'Europe/Berlin',
      accessRole: body.accessRole ?? 'writer',
    };
    state.calendars.set(id, calendar);
    ctx.status = 201;
    ctx.body = calendar;
  });

  /** The calendar's owner changes an event in the platform's own app (a concurrent edit). */
  router.post('/_sandbox/search_suite/calendar/edit-in-app', (ctx) => {
    const { calendarId, eventId, changes } = (ctx.request.body ?? {}) as {
      calendarId: string;
      eventId: string;
      changes: Record<string, unknown>;
    };
    const calendar = book.calendar(calendarId);
    if (!calendar) return refuse(ctx, 404, 'notFound', 'Not Found');
    answer(ctx, () => {
      ctx.body = present(book.change(calendar, book.find(calendar, eventId), changes));
    });
  });

  /** Every sync token of the calendar given out so far stops working (410), as when they expire. */
  router.post('/_sandbox/search_suite/calendar/expire-sync-tokens', (ctx) => {
    const { calendarId } = (ctx.request.body ?? {}) as { calendarId: string };
    state.expiredUpTo.set(book.calendar(calendarId)?.id ?? calendarId, state.syncTokens);
    ctx.body = { expiredUpTo: state.syncTokens };
  });

  /** Everything the calendar holds (deleted events as cancelled), and who was told of which write. */
  router.get('/_sandbox/search_suite/calendar/events', (ctx) => {
    const calendar = book.calendar(String(ctx.query.calendarId ?? PRIMARY.id));
    if (!calendar) return refuse(ctx, 404, 'notFound', 'Not Found');
    ctx.body = {
      events: [...book.events(calendar).values()].map(present),
      updates: state.updates.filter((update) => update.calendarId === calendar.id),
    };
  });

  router.post('/_sandbox/search_suite/calendar/faults', (ctx) => {
    book.faults.push(...(((ctx.request.body ?? {}) as { faults?: CalendarFault[] }).faults ?? []));
    ctx.body = { pending: book.faults.length };
  });
}
