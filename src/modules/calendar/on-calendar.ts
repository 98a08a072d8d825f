import { NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { idOf } from '../../lib/ids.js';
import { type CalendarEvents, EventChanged, EventNotFound } from '../../platforms/capabilities/calendar.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { PermissionMissingError } from '../accounts/errors.js';
import type { AccountRow } from '../accounts/models.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import type { Principal } from '../auth/principal.js';
import { CalendarEventChangedError } from './errors.js';

export interface OnCalendar {
  events: CalendarEvents;
  account: AdapterAccount;
  /** The calendar asked for, or the account's own. */
  calendarId: string;
  row: AccountRow;
}

/**
 * Acts on a calendar of a connected calendar account: other platforms are refused (422, saying why), an account
 * connected without the calendar permission is 422 `permission_missing`, no such event or calendar is 404, an
 * event changed since the version in `If-Match` is 409 `calendar_event_changed`, and what the platform finds wrong
 * with the request (a change that leaves the event ending before it starts) is 400 in the platform's words.
 */
export function onCalendar<T>(
  services: Services,
  principal: Principal,
  accountId: string,
  calendarId: string | undefined,
  call: (on: OnCalendar) => Promise<T>,
  condition?: { eventId: string; ifMatch: string | undefined },
): Promise<T> {
  return withConnectedAccount(
    services,
    principal,
    { accountId: idOf('acc', accountId) },
    'calendarEvents',
    async (adapter, account, row) => {
      const events = adapter.calendarEvents;
      const missing = events.scopes.filter((scope) => !row.scopes.includes(scope));
      if (missing.length > 0) {
        throw new PermissionMissingError(
          `The account was connected without ${missing.join(' and ')}, which calendar events need. Connect the account again and grant it.`,
          missing.join(' '),
        );
      }
      return call({ events, account, row, calendarId: calendarId ?? row.platformAccountId ?? 'primary' });
    },
    {
      unsupported: (platform) =>
        `${platform} accounts have no calendar: calendar events need a calendar account (connect search_suite with include=calendar).`,
      handle: (error) => {
        if (error instanceof EventNotFound) throw new NotFoundError(error.what);
        if (error instanceof EventChanged && condition?.ifMatch) throw new CalendarEventChangedError(condition.eventId, condition.ifMatch);
        if (error.kind === 'invalid_request' && error.details.status === 400) {
          throw new ValidationFailedError([
            { path: 'body', code: 'platform_refused', message: `The platform refused it: ${error.message}` },
          ]);
        }
      },
    },
  );
}
