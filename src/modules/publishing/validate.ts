import type { components } from '../../../generated/api.js';
import { type FieldError, ValidationFailedError } from '../../lib/errors.js';
import { idOf } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import type { AccountRow } from '../accounts/models.js';
import { ownedAccounts } from '../accounts/read.js';
import { mediaFiles, type OwnedMedia } from '../media/read.js';
import { assertReachableBy } from '../connect/api.js';
import { contentOf, FETCHES_MEDIA } from './attempt.js';
import { PostValidationError } from './errors.js';
import { isTimeZone } from './occurrences.js';

type Violation = components['schemas']['PostValidationError'];
type Platform = components['schemas']['Platform'];

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** A post checked: its profile (its first account's) and accounts in order, and every rule it breaks. */
export interface Checked {
  profileId: string;
  accounts: AccountRow[];
  errors: Violation[];
}

/** What every way of creating a post gives: `POST /posts` and `POST /queue` with a new post. */
export interface PostContentInput {
  text?: string;
  mediaIds?: string[];
  accountIds: string[];
  platformOptions?: components['schemas']['PostPlatformOptions'];
}

/** What the checks of posts read: the caller's accounts and media the posts name, read once for any number of posts. */
export interface PostLookups {
  accounts: Map<string, AccountRow>;
  media: Map<string, OwnedMedia>;
}

/** The post as it is checked: its content, and when it is to be published (absent: as it is, for `POST /queue`). */
export type CheckedInput = PostContentInput & { scheduledAt?: string; timezone?: string };

/** The rules of the request itself, which `POST /posts` answers with 400 (`validation_failed`) before the platforms'. */
export function requestProblems(input: CheckedInput, minScheduleAheadSeconds: number): FieldError[] {
  const problems: FieldError[] = [];
  // Not in the schema: every validator and generator reads "text, media or both" differently there.
  if ((input.text ?? null) === null && (input.mediaIds ?? []).length === 0) {
    problems.push({ path: 'body/text', code: 'required', message: 'is required without mediaIds: a post has text, media or both' });
  }
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) {
    problems.push({ path: 'body/timezone', message: `is not an IANA time zone: ${input.timezone}`, code: 'timezone' });
  }
  if (input.scheduledAt !== undefined) {
    const ahead = Date.parse(input.scheduledAt) - Date.now();
    if (ahead <= 0 || ahead < minScheduleAheadSeconds * 1000 || ahead > YEAR_MS) {
      const soonest = minScheduleAheadSeconds > 0 ? `at least ${minScheduleAheadSeconds} seconds ahead` : 'in the future';
      problems.push({ path: 'body/scheduledAt', code: 'schedule_window', message: `must be ${soonest} and at most 365 days ahead` });
    }
  }
  return problems;
}

/** The accounts and media `inputs` name, of the caller (403 at once for those outside a restricted key's profiles). */
export async function lookUp(services: Services, principal: Principal, inputs: PostContentInput[]): Promise<PostLookups> {
  const accountIds = [...new Set(inputs.flatMap((input) => input.accountIds))];
  const mediaIds = [...new Set(inputs.flatMap((input) => input.mediaIds ?? []))];
  const [rows, media] = await Promise.all([
    ownedAccounts(
      services.db,
      principal,
      accountIds.map((id) => idOf('acc', id)),
    ),
    mediaFiles(services.db, services.config.publicUrl, principal, mediaIds),
  ]);
  return { accounts: new Map(rows.map((row) => [row.id as string, row])), media };
}

/**
 * Checks the post against everything that would make a target fail for sure, before anything is created:
 * the accounts (the owner's, one profile, connected, on a platform that publishes), the media (the owner's, of
 * the post's profile or of none), options only for platforms the post goes to, and each target platform's own
 * rules. Every broken rule is reported at once (422 `post_validation_failed`), each naming its target; the
 * request's own rules before (400); an account or media outside a restricted key's profiles is 403 at once; then,
 * for a post with media, a real platform that could not fetch it at PUBLIC_URL is 422 `public_url_unreachable`.
 * Returns the accounts in order.
 */
export async function checkPost(
  services: Services,
  principal: Principal,
  input: CheckedInput,
): Promise<{ profileId: string; accounts: AccountRow[] }> {
  const invalid = requestProblems(input, services.config.publishing.minScheduleAheadSeconds);
  if (invalid.length > 0) throw new ValidationFailedError(invalid);
  const checked = ruleViolations(services.platforms, input, await lookUp(services, principal, [input]));
  if (checked.errors.length > 0) throw new PostValidationError(checked.errors);
  // A real platform fetches the post's media from PUBLIC_URL: 422 `public_url_unreachable` before anything is made.
  if ((input.mediaIds ?? []).length > 0)
    for (const account of checked.accounts) assertReachableBy(services, account.platform, FETCHES_MEDIA);
  return checked;
}

/** Every rule of the accounts, the media and the targets' platforms the post breaks, from what `lookUp` read. */
export function ruleViolations(platforms: Services['platforms'], input: PostContentInput, { accounts: byId, media }: PostLookups): Checked {
  const errors: Violation[] = [];
  const accounts: AccountRow[] = [];
  input.accountIds.forEach((id, index) => {
    const row = byId.get(id);
    if (!row) {
      errors.push({
        path: `body/accountIds/${index}`,
        code: 'account_not_found',
        message: `No account ${id}.`,
        accountId: id,
        platform: null,
        limit: null,
      });
    } else {
      accounts.push(row);
    }
  });
  const profileId = accounts[0]?.profileId ?? '';
  for (const account of accounts) {
    const platform = account.platform as Platform;
    const target = { accountId: account.id, platform, limit: null };
    if (account.profileId !== profileId) {
      errors.push({
        ...target,
        path: `body/accountIds/${input.accountIds.indexOf(account.id)}`,
        code: 'account_other_profile',
        message: `The account belongs to profile ${account.profileId}; a post's accounts must all be of one profile (${profileId}).`,
      });
    }
    if (!platforms.get(account.platform)?.publisher) {
      errors.push({
        ...target,
        path: `body/accountIds/${input.accountIds.indexOf(account.id)}`,
        code: 'account_cannot_publish',
        message: `${account.platform} accounts cannot publish posts through this service (yet).`,
      });
    } else if (account.status !== 'connected') {
      errors.push({
        ...target,
        path: `body/accountIds/${input.accountIds.indexOf(account.id)}`,
        code: 'account_needs_reconnection',
        message: `The account is ${account.status.replace('_', ' ')}; reconnect it before posting.`,
      });
    }
  }
  (input.mediaIds ?? []).forEach((id, index) => {
    const path = `body/mediaIds/${index}`;
    const mediaProfileId = media.get(id)?.profileId;
    if (mediaProfileId === undefined) {
      errors.push({ path, code: 'media_not_found', message: `No media ${id}.`, accountId: null, platform: null, limit: null });
    } else if (mediaProfileId !== null) {
      if (profileId && mediaProfileId !== profileId) {
        errors.push({
          path,
          code: 'media_other_profile',
          accountId: null,
          platform: null,
          limit: null,
          message: `The media belongs to profile ${mediaProfileId}; a post may use media of its own profile (${profileId}) or of no profile.`,
        });
      }
    }
  });
  const targeted = new Set(accounts.map((account) => account.platform));
  for (const platform of Object.keys(input.platformOptions ?? {})) {
    if (!targeted.has(platform)) {
      errors.push({
        path: `body/platformOptions/${platform}`,
        code: 'option_not_allowed',
        message: `The post has no ${platform} account; remove platformOptions.${platform}.`,
        accountId: null,
        platform: platform as Platform,
        limit: null,
      });
    }
  }
  const post = {
    text: input.text ?? null,
    mediaIds: (input.mediaIds ?? []).filter((id) => media.has(id)),
    platformOptions: (input.platformOptions ?? {}) as Record<string, Record<string, unknown>>,
  };
  for (const account of accounts) {
    const publisher = platforms.get(account.platform)?.publisher;
    if (!publisher) continue;
    for (const violation of publisher.validate(contentOf(post, account.platform, media))) {
      errors.push({
        ...violation,
        path: `body/${violation.path}`,
        accountId: account.id,
        platform: account.platform as Platform,
        limit: violation.limit ?? null,
      });
    }
  }
  return { profileId, accounts, errors };
}
