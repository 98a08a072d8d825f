import { type Handler, principalOf } from '../../http/handler.js';
import { writeKey } from '../platform-writes/write-key.js';
import * as calendar from './events.js';

/** A request header's value, or undefined when it is absent or empty. */
const header = (request: { koa: { get(name: string): string } }, name: string) => request.koa.get(name) || undefined;

export const listCalendars: Handler<'listCalendars'> = async (request, services) => ({
  status: 200,
  body: { data: await calendar.listCalendars(services, principalOf(request), request.params.id) },
});

export const listCalendarEvents: Handler<'listCalendarEvents'> = async (request, services) => ({
  status: 200,
  body: await calendar.listEvents(services, principalOf(request), request.params.id, request.query),
});

export const getCalendarEvent: Handler<'getCalendarEvent'> = async (request, services) => {
  const event = await calendar.getEvent(
    services,
    principalOf(request),
    request.params.id,
    request.params.eventId,
    request.query.calendarId,
  );
  return { status: 200, body: event, headers: { ETag: event.etag } };
};

export const createCalendarEvent: Handler<'createCalendarEvent'> = async (request, services) => {
  const event = await calendar.createEvent(services, principalOf(request), request.params.id, request.body, {
    calendarId: request.query.calendarId,
    sendUpdates: request.query.sendUpdates ?? 'none',
    writeKey: writeKey(request, 'calendar.event'),
  });
  return { status: 201, body: event, headers: { ETag: event.etag } };
};

export const updateCalendarEvent: Handler<'updateCalendarEvent'> = async (request, services) => {
  const event = await calendar.updateEvent(services, principalOf(request), request.params.id, request.params.eventId, request.body, {
    calendarId: request.query.calendarId,
    sendUpdates: request.query.sendUpdates ?? 'none',
    ifMatch: header(request, 'If-Match'),
  });
  return { status: 200, body: event, headers: { ETag: event.etag } };
};

export const deleteCalendarEvent: Handler<'deleteCalendarEvent'> = async (request, services) => {
  await calendar.deleteEvent(services, principalOf(request), request.params.id, request.params.eventId, {
    calendarId: request.query.calendarId,
    sendUpdates: request.query.sendUpdates ?? 'none',
    ifMatch: header(request, 'If-Match'),
  });
  return { status: 204, body: undefined };
};
