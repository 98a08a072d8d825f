import { ApiError } from '../../lib/errors.js';

/** 409 `calendar_event_changed`: the event is no longer at the version `If-Match` named; nothing was changed. */
export class CalendarEventChangedError extends ApiError {
  constructor(eventId: string, ifMatch: string) {
    super(
      409,
      'calendar_event_changed',
      'The event changed since that version',
      `Event ${eventId} changed on the platform since version ${ifMatch}; nothing was changed. Read it again and reapply the change.`,
    );
  }
}
