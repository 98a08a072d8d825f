import type { components } from '../../../generated/api.js';
import { ApiError, type FieldError, type ProblemMembers, UnprocessableError } from '../../lib/errors.js';
import type { NoFreeSlot } from './occurrences.js';

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

/**
 * 422 `post_validation_failed` of `POST /posts/batch`: every rule broken, each path naming its item
 * (`body/posts/3/text`), and `items`, every item's outcome (`valid` or `invalid` with its own errors).
 */
export class PostBatchValidationError extends ApiError {
  constructor(itemErrors: Violation[][]) {
    const items = itemErrors.map((errors, index) => ({
      index,
      status: errors.length > 0 ? ('invalid' as const) : ('valid' as const),
      errors: errors.map((error) => ({ ...error, path: error.path.replace(/^body\//, `body/posts/${index}/`) })),
    }));
    const errors = items.flatMap((item) => item.errors);
    const invalid = items.filter((item) => item.status === 'invalid').length;
    super(
      422,
      'post_validation_failed',
      "The post breaks a platform's rules",
      `${invalid} of ${items.length} posts break rules; see items. Nothing was created.`,
      {
        errors: errors as unknown as FieldError[],
        // `items` is this problem's own member (PostValidationProblem), beside the shared ones.
        members: { items } as unknown as ProblemMembers,
      },
    );
  }
}

/** 409 `post_status_conflict`: the post's status (or one target's) does not allow this; `detail` says what would. */
export class PostStatusConflictError extends ApiError {
  constructor(detail: string) {
    super(409, 'post_status_conflict', "The post's status does not allow this", detail);
  }
}

/** 409 `queue_slot_exists`: the profile has a slot at this day, time and time zone for the same accounts. */
export class QueueSlotExistsError extends ApiError {
  constructor(slot: { dayOfWeek: string; time: string; timezone: string; accountIds: string[] | null }) {
    super(
      409,
      'queue_slot_exists',
      'The queue slot exists',
      `The profile has a slot on ${slot.dayOfWeek} at ${slot.time} ${slot.timezone} for ${slot.accountIds?.join(', ') ?? 'every account'} already.`,
    );
  }
}

/** 422 `queue_slot_limit_reached`. */
export class QueueSlotLimitReachedError extends UnprocessableError {
  constructor(max: number) {
    super('queue_slot_limit_reached', 'Queue slot limit reached', `A profile may have at most ${max} queue slots.`);
  }
}

/**
 * 422 `queue_slot_unavailable`: the profile has no slot at all, none serving every account of the post (the detail
 * names those no slot serves), or every one serving them is taken for a year.
 */
export class QueueSlotUnavailableError extends UnprocessableError {
  constructor(reason: NoFreeSlot) {
    super('queue_slot_unavailable', 'No free queue slot', unavailableDetail(reason));
  }
}

function unavailableDetail(reason: NoFreeSlot): string {
  if (reason === 'no_slots') return 'The profile has no queue slot; create one with POST /queue/slots.';
  if (reason === 'full')
    return "Every slot of the profile serving the post's accounts is taken for the next 365 days; add slots or schedule the post with scheduledAt.";
  const { unserved, accountIds } = reason;
  return unserved.length > 0
    ? `No queue slot of the profile is kept for ${unserved.join(', ')}; add ${unserved.length === 1 ? 'it' : 'them'} to a slot's accountIds or create a slot for ${unserved.length === 1 ? 'it' : 'them'}.`
    : `No queue slot of the profile is kept for all of ${accountIds.join(', ')} at once; a queued post takes a slot that serves every one of its accounts.`;
}
