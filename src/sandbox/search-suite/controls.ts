import { closed, type ControlBodies, integer, NO_BODY, oneOf, strictControl, text } from '../control-schema.js';
import { PRIMARY } from './calendar-book.js';

const calendarId = text(`the calendar (${PRIMARY.id}, the primary, or one made with /calendars)`);

/** The bodies of the search suite's people's controls: the owner's calendars and business profile, and faults. */
export const SEARCH_SUITE_CONTROLS: ControlBodies = {
  'POST /_sandbox/search_suite/calendars': closed(
    {
      summary: text('its name (Team by default)'),
      description: { type: 'string' },
      timeZone: text('an IANA time zone (Europe/Berlin by default)'),
      accessRole: oneOf(['owner', 'writer', 'reader'], "the account's role on it (writer by default)"),
    },
    [],
    { summary: 'Roastery team', timeZone: 'Europe/Berlin', accessRole: 'writer' },
  ),
  'POST /_sandbox/search_suite/calendar/edit-in-app': closed(
    {
      calendarId,
      eventId: text('the event the owner changes'),
      changes: { type: 'object', description: "the event's members as Google names them" },
    },
    ['calendarId', 'eventId', 'changes'],
    { calendarId: PRIMARY.id, eventId: '…', changes: { location: 'Studio 2' } },
  ),
  'POST /_sandbox/search_suite/calendar/expire-sync-tokens': closed({ calendarId }, ['calendarId'], { calendarId: PRIMARY.id }),
  'POST /_sandbox/search_suite/calendar/faults': closed(
    {
      faults: {
        type: 'array',
        minItems: 1,
        items: closed({ kind: oneOf(['rate_limited', 'too_many_requests', 'server_error', 'drop_after_insert']) }, ['kind'], {
          kind: 'rate_limited',
        }),
      },
    },
    ['faults'],
    { faults: [{ kind: 'rate_limited' }] },
  ),
  'POST /_sandbox/search_suite/local-posts': closed(
    { location: text('the location (locations/…) whose owner posts in the app'), summary: text("the post's text") },
    ['location'],
    { location: 'locations/…', summary: 'Open on Sunday from 10.' },
  ),
  'POST /_sandbox/search_suite/faults': closed(
    {
      faults: {
        type: 'array',
        minItems: 1,
        items: closed({ kind: oneOf(['server_error', 'rate_limited', 'hang_after_create']) }, ['kind'], { kind: 'server_error' }),
      },
    },
    ['faults'],
    { faults: [{ kind: 'server_error' }] },
  ),
  'POST /_sandbox/search_suite/revoke-access': NO_BODY,
  'POST /_sandbox/search_suite/settings': closed({ accessTokenTtlSeconds: integer('how long an access token lives', 1) }, [], {
    accessTokenTtlSeconds: 60,
  }),
  ...strictControl('search_suite'),
};
