import type { components } from '../../../generated/api.js';
import { ApiError, type FieldError, UnprocessableError } from '../../lib/errors.js';

type Violation = components['schemas']['PostValidationError'];

/** 422 `post_validation_failed`: every rule the post breaks, each naming its target (account and platform). */
export class PostValidationError extends UnprocessableError {
  constructor(errors: Violation[]) {
    const count = errors.length;
    super(
      'post_validation_failed',
      "The post breaks a platform's rules",
      `${count} rule${count === 1 ? ' is' : 's are'} broken; see errors.`,
      errors as unknown as FieldError[],
    );
  }
}

/** 409 `post_status_conflict`: the post's status (or one target's) does not allow this; `detail` says what would. */
export class PostStatusConflictError extends ApiError {
  constructor(detail: string) {
    super(409, 'post_status_conflict', "The post's status does not allow this", detail);
  }
}

/** 409 `queue_slot_exists`: the profile has a slot at this day, time and time zone. */
export class QueueSlotExistsError extends ApiError {
  constructor(slot: { dayOfWeek: string; time: string; timezone: string }) {
    super(
      409,
      'queue_slot_exists',
      'The queue slot exists',
      `The profile has a slot on ${slot.dayOfWeek} at ${slot.time} ${slot.timezone} already.`,
    );
  }
}

/** 422 `queue_slot_limit_reached`. */
export class QueueSlotLimitReachedError extends UnprocessableError {
  constructor(max: number) {
    super('queue_slot_limit_reached', 'Queue slot limit reached', `A profile may have at most ${max} queue slots.`);
  }
}

/** 422 `queue_slot_unavailable`: the profile has no slot at all, or every one is taken for a year. */
export class QueueSlotUnavailableError extends UnprocessableError {
  constructor(reason: 'no_slots' | 'full') {
    super(
      'queue_slot_unavailable',
      'No free queue slot',
      reason === 'no_slots'
        ? 'The profile has no queue slot; create one with POST /queue/slots.'
        : 'Every slot of the profile is taken for the next 365 days; add slots or schedule the post with scheduledAt.',
    );
  }
}
