import type { PublishingSettings } from './settings.js';
import { idOf } from '../../lib/ids.js';
import { PlatformError } from '../../platforms/errors.js';
import {
  OutcomeUnknowable,
  type Published,
  type Publisher,
  type PublishContent,
  type PublishMedia,
  StillProcessing,
} from '../../platforms/capabilities/publishing.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import type { AccountRow } from '../accounts/models.js';
import { accountsById, adapterAccount } from '../accounts/read.js';
import { publicUrlUnreachableBy } from '../connect/api.js';
import { storedMediaFiles } from '../media/read.js';
import type { Claim, Claimed } from './claim.js';
import { failure, failureOf, interimFailure, isPassing, unknownOutcome } from './failures.js';
import type { PostRow, TargetFailure, TargetRow } from './rows.js';

/** What became of one claimed target; recorded by record.ts. */
export type Outcome =
  | { kind: 'published'; result: Published }
  | { kind: 'failed'; failure: TargetFailure; accountError?: PlatformError }
  /**
   * Try again at `at`; `unknown`: the last attempt's outcome must be reconciled before anything is sent;
   * `takeBackAttempt`: the call found the platform still processing the post, so the attempt its mark counted
   * was only a look.
   */
  | { kind: 'retry'; at: Date; unknown: boolean; takeBackAttempt?: boolean; lastError?: TargetFailure };

/** How long a lost answer may stay unresolved (the platform cannot be asked) before the target fails as unknown. */
const RECONCILE_GIVE_UP_MS = 24 * 3600 * 1000;

/** What a batch of claimed targets needs: their posts, as the claim read them, and their accounts and media. */
export interface AttemptContext {
  posts: Map<string, Pick<PostRow, 'id' | 'text' | 'mediaIds' | 'platformOptions'>>;
  accounts: Map<string, AccountRow>;
  media: Map<string, PublishMedia>;
}

export async function loadContext(services: Services, { claimed, posts }: Claim): Promise<AttemptContext> {
  const { db, config } = services;
  const accountIds = [...new Set(claimed.map((c) => idOf('acc', c.target.accountId)))];
  const [accounts, media] = await Promise.all([
    accountsById(db, accountIds),
    storedMediaFiles(db, config.publicUrl, [...new Set([...posts.values()].flatMap((post) => post.mediaIds))]),
  ]);
  return { posts, accounts: new Map(accounts.map((account) => [account.id, account])), media };
}

export function contentOf(
  post: Pick<PostRow, 'text' | 'mediaIds' | 'platformOptions'>,
  platform: string,
  media: Map<string, PublishMedia>,
): PublishContent {
  return {
    text: post.text,
    media: post.mediaIds.map((id) => media.get(id)).filter((m): m is PublishMedia => m !== undefined),
    options: post.platformOptions[platform] ?? {},
  };
}

/** What a platform does at PUBLIC_URL with a post that has media, for `public_url_unreachable`. */
export const FETCHES_MEDIA = "fetches the post's media there";

/** The wait before the next attempt: the schedule's step with ±10 % jitter, or longer if the platform asked. */
export function retryAt(settings: PublishingSettings, attemptsMade: number, platformRetryAt?: Date): Date {
  const step = settings.retryScheduleSeconds[Math.min(attemptsMade - 1, settings.retryScheduleSeconds.length - 1)] ?? 0;
  const at = Date.now() + step * (0.9 + Math.random() * 0.2) * 1000;
  return new Date(Math.max(at, platformRetryAt?.getTime() ?? 0));
}

/** What a target's call needs, ready before it is made (credentials opened, content gathered). */
export interface Call {
  publisher: Publisher;
  account: AdapterAccount;
  content: PublishContent;
  /** Why PUBLIC_URL keeps the platform from fetching the post's media, or null. */
  unreachable: string | null;
}

/** A target's attempt as far as it can be decided before any call: an outcome reached without one, or its call. */
export type Prepared = { outcome: Outcome } | Call;

/**
 * Everything of an attempt that reads no platform: the refusals that need no call (no publisher, an account to
 * reconnect) and the call's parts. Done when a target is claimed, so that a target leased ahead of its due time has
 * it done before then.
 */
export function prepareAttempt(services: Services, context: AttemptContext, target: TargetRow): Prepared {
  const post = context.posts.get(target.postId);
  const account = context.accounts.get(target.accountId);
  const publisher = services.platforms.get(target.platform)?.publisher;
  if (!post || !publisher) return { outcome: { kind: 'failed', failure: failure('unknown', `${target.platform} cannot publish posts.`) } };
  if (!account || account.status !== 'connected' || !account.credentialsCiphertext) {
    return {
      outcome: {
        kind: 'failed',
        failure: failure(
          'account_needs_reconnection',
          `The account is ${account?.status.replace('_', ' ') ?? 'gone'}; reconnect it, then retry.`,
        ),
      },
    };
  }
  const content = contentOf(post, target.platform, context.media);
  // PUBLIC_URL is checked when the post is made; it may have changed since (an instance restarted on another one).
  const unreachable = content.media.length > 0 ? publicUrlUnreachableBy(services, target.platform, FETCHES_MEDIA) : null;
  return { publisher, account: adapterAccount(account, services.secrets), content, unreachable };
}

/** Whether the attempt goes straight to its publishing call: nothing to reconcile first, nothing refused. */
export function publishesAtOnce(prepared: Prepared, claimed: Claimed): boolean {
  return !('outcome' in prepared) && prepared.unreachable === null && claimed.unknownSince === null;
}

/**
 * Publishes one claimed target, first reconciling an attempt whose answer was lost. Never throws for a platform's
 * failure: it becomes an outcome. A passing failure is retried on the schedule only when the platform cannot have
 * published (429, no connection); any other lost answer is reconciled first, or — where the platform cannot be
 * asked — fails the target as `unknown` instead of risking a second copy. `markStarted` commits the attempt's
 * mark; it is awaited just before the publishing call, and only then.
 */
export async function attemptTarget(
  services: Services,
  prepared: Prepared,
  claimed: Claimed,
  markStarted: (claimed: Claimed) => Promise<void>,
): Promise<Outcome> {
  if ('outcome' in prepared) return prepared.outcome;
  const { target, unknownSince } = claimed;
  const settings = services.config.publishing;
  const { publisher, account: credentials, content } = prepared;
  if (unknownSince) {
    if (!publisher.reconcile)
      return { kind: 'failed', failure: unknownOutcome(target.platform, 'the service stopped while the platform was being called') };
    try {
      const found = await publisher.reconcile(credentials, content, target.progress, unknownSince);
      if (found) return { kind: 'published', result: found };
      if (target.attempts > settings.retryScheduleSeconds.length) {
        return {
          kind: 'failed',
          failure: failure(
            'platform_unavailable',
            `${target.platform} failed on every attempt; it did not publish the post (checked). Retry later.`,
          ),
        };
      }
    } catch (error) {
      if (error instanceof StillProcessing) return stillProcessing(error, false);
      if (error instanceof OutcomeUnknowable) return { kind: 'failed', failure: unknownOutcome(target.platform, error.message) };
      if (!(error instanceof PlatformError)) throw error;
      if (!isPassing(error)) return { kind: 'failed', failure: failureOf(error, target.platform), accountError: error };
      if (Date.now() - unknownSince.getTime() > RECONCILE_GIVE_UP_MS) {
        return { kind: 'failed', failure: unknownOutcome(target.platform, `checking with the platform kept failing: ${error.message}`) };
      }
      return {
        kind: 'retry',
        at: retryAt(settings, Math.max(1, target.attempts), error.details.retryAt),
        unknown: true,
        lastError: interimFailure(error, target.platform, true),
      };
    }
  }
  if (prepared.unreachable) return { kind: 'failed', failure: failure('public_url_unreachable', prepared.unreachable) };
  const progress = {
    state: target.progress,
    save: async (state: Record<string, unknown>) => {
      await services
        .db('postTargets')
        .where({ postId: target.postId, accountId: target.accountId, status: 'processing' })
        .update({
          progress: JSON.stringify(state),
          lockedUntil: services.db.raw('now() + make_interval(secs => ?)', [settings.leaseSeconds]),
        });
      progress.state = state;
    },
  };
  await markStarted(claimed);
  try {
    return { kind: 'published', result: await publisher.publish(credentials, content, progress) };
  } catch (error) {
    if (error instanceof StillProcessing) return stillProcessing(error, true);
    if (!(error instanceof PlatformError)) throw error;
    return failedAttempt(error, target, settings, publisher.reconcile !== undefined);
  }
}

function stillProcessing(error: StillProcessing, marked: boolean): Outcome {
  return { kind: 'retry', at: new Date(Date.now() + error.checkAfterMs), unknown: false, takeBackAttempt: marked };
}

/** The outcome of a marked attempt (counted in `attempts` by its mark, not in the claimed row) that failed. */
function failedAttempt(error: PlatformError, target: TargetRow, settings: PublishingSettings, canReconcile: boolean): Outcome {
  const attemptsMade = target.attempts + 1;
  if (!isPassing(error)) return { kind: 'failed', failure: failureOf(error, target.platform), accountError: error };
  const notPublished = error.kind === 'rate_limited' || error.details.unsent === true;
  if (!notPublished && !canReconcile) {
    return { kind: 'failed', failure: unknownOutcome(target.platform, `the platform answered: ${error.message}`) };
  }
  if (attemptsMade > settings.retryScheduleSeconds.length) {
    // Out of retries: a lost answer still gets its reconcile before the target is given up.
    if (notPublished) return { kind: 'failed', failure: failureOf(error, target.platform) };
  }
  return {
    kind: 'retry',
    at: retryAt(settings, attemptsMade, error.details.retryAt),
    unknown: !notPublished,
    lastError: interimFailure(error, target.platform, !notPublished),
  };
}
