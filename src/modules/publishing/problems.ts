import type { components } from '../../../generated/api.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { publicUrlUnreachableBy } from '../connect/api.js';
import { FETCHES_MEDIA } from './attempt.js';
import { placeInQueue } from './create.js';
import { QueueSlotUnavailableError } from './errors.js';
import { type Checked, lookUp, requestProblems, ruleViolations } from './validate.js';

type PostCreate = components['schemas']['PostCreate'];
type Violation = components['schemas']['PostValidationError'];

/** The request's own rules (`POST /posts` answers them with 400) under their codes among the post's rules. */
const AS_RULE: Record<string, Violation['code']> = {
  required: 'text_or_media_required',
  timezone: 'timezone',
  schedule_window: 'schedule_window',
};

/**
 * Every problem `POST /posts` would answer for each of `inputs`, all at once and with nothing stored: the request's
 * own rules (as rules of the whole post), the accounts', the media's and the target platforms' (the same checks,
 * `checkPost`'s), and a free queue slot for a queued post. The accounts and media of all of them are read once.
 */
export async function postProblems(services: Services, principal: Principal, inputs: PostCreate[]): Promise<Checked[]> {
  const found = await lookUp(services, principal, inputs);
  const checked = inputs.map((input) => {
    const own = requestProblems(input, services.config.publishing.minScheduleAheadSeconds).map((problem): Violation => ({
      ...problem,
      code: AS_RULE[problem.code]!,
      accountId: null,
      platform: null,
      limit: null,
    }));
    const rules = ruleViolations(services.platforms, input, found);
    // A real platform that could not fetch the media at PUBLIC_URL (POST /posts: 422 `public_url_unreachable`).
    const unreachable =
      (input.mediaIds ?? []).length === 0
        ? []
        : rules.accounts.flatMap((account): Violation[] => {
            const why = publicUrlUnreachableBy(services, account.platform, FETCHES_MEDIA);
            return why
              ? [
                  {
                    path: 'body/mediaIds',
                    code: 'public_url_unreachable',
                    message: why,
                    accountId: account.id,
                    platform: account.platform as Violation['platform'],
                    limit: null,
                  },
                ]
              : [];
          });
    return { ...rules, errors: [...own, ...rules.errors, ...unreachable] };
  });
  // A queued post needs a free slot of its profile serving all its accounts: looked for once per profile and
  // accounts, as its placement would.
  const refusals = new Map<string, Promise<QueueSlotUnavailableError | null>>();
  for (const [i, item] of checked.entries()) {
    if (!('useQueue' in inputs[i]!) || !item.profileId) continue;
    const accountIds = item.accounts.map((account) => account.id);
    const key = [item.profileId, ...[...accountIds].sort()].join(' ');
    if (!refusals.has(key))
      refusals.set(
        key,
        placeInQueue(services.db, item.profileId, accountIds).then(
          () => null,
          (error: unknown) => {
            if (error instanceof QueueSlotUnavailableError) return error;
            throw error;
          },
        ),
      );
    const refusal = await refusals.get(key)!;
    if (!refusal) continue;
    item.errors.push({
      path: 'body/useQueue',
      code: 'queue_slot_unavailable',
      message: refusal.detail,
      accountId: null,
      platform: null,
      limit: null,
    });
  }
  return checked;
}
