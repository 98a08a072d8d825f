import type { Knex } from 'knex';
import { numberedPlaceholders, preparedRows } from '../../db/prepared.js';
import { Batcher } from '../../lib/batcher.js';
import { idOf } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { noteSuccesses, recordPlatformOutcome } from '../accounts/accounts.js';
import { emittedWith, type NewEvent } from '../events/emit.js';
import type { Outcome } from './attempt.js';
import type { Claimed } from './claim.js';
import {
  besidePost,
  postColumns,
  type PostStatus,
  SETTLING_POST_COLUMNS,
  type SettlingPost,
  targetColumns,
  type TargetRow,
} from './rows.js';
import { type PostWritten, postsWritten } from './read.js';
import { postEvent, presentTarget } from './present.js';
import { notifyDue } from './wake.js';

export interface Finished {
  claimed: Claimed;
  outcome: Outcome;
}

/** The overall status from the targets' (`cancelled` and `deleted` are set by DELETE, never derived). */
export function derivedStatus(targets: Array<Pick<TargetRow, 'status'>>): PostStatus {
  const count = (status: TargetRow['status']) => targets.filter((t) => t.status === status).length;
  if (count('processing') > 0) return 'processing';
  if (count('scheduled') === targets.length) return 'scheduled';
  if (count('scheduled') > 0) return 'processing';
  const published = count('published') + count('deleted');
  const failed = count('failed');
  if (failed === 0) return 'published';
  return published === 0 ? 'failed' : 'partial';
}

const FINAL_EVENTS = { published: 'post.published', partial: 'post.partial', failed: 'post.failed' } as const;

/**
 * Writes the outcomes (jsonb rows) of targets still `processing` and returns them with their posts, locked in id
 * order, and each post's number of targets. The targets are found by their posts' ids (`$1`) through the primary
 * key: by the jsonb rows alone, statistics taken before a burst made the planner walk every due target instead.
 */
const RECORD_TARGETS = `
  WITH locked AS (SELECT ${SETTLING_POST_COLUMNS.join(', ')} FROM posts WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE),
  updated AS (
    UPDATE post_targets t SET status = o.status, platform_post_id = coalesce(o.platform_post_id, t.platform_post_id),
      url = coalesce(o.url, t.url), progress = coalesce(o.progress, t.progress), published_at = CASE WHEN o.status = 'published' THEN now() ELSE t.published_at END,
      failure = o.failure, due_at = o.due_at, locked_until = NULL, attempts = t.attempts + o.add_attempt,
      attempt_started_at = CASE WHEN o.keep_started THEN t.attempt_started_at ELSE NULL END
    FROM jsonb_to_recordset($2::jsonb) AS o(post_id text, account_id text, status text, platform_post_id text, url text,
      progress jsonb, failure jsonb, due_at timestamptz, keep_started boolean, add_attempt int)
    WHERE t.post_id = ANY($1::text[]) AND t.post_id = o.post_id AND t.account_id = o.account_id AND t.status = 'processing'
    RETURNING t.*
  )
  SELECT ${targetColumns('u')}, ${postColumns('l', true, SETTLING_POST_COLUMNS)},
    (SELECT count(*) FROM post_targets c WHERE c.post_id = u.post_id)::int AS "targetCount"
  FROM updated u JOIN locked l ON l.id = u.post_id`;

/**
 * Records a batch of outcomes in one transaction: each target's platform id (before its job is acknowledged:
 * this commit *is* the acknowledgement), failure or next attempt; each post settled when its last target is;
 * `post.platform.failed` per failed target and `post.published` / `partial` / `failed` per settled post, in
 * the same transaction. The posts are locked in id order by the statement that writes the targets; a post with
 * other targets has them read by a later statement, once the lock is held, so that two workers finishing targets
 * of one post never both miss that the post is done. A target finished by another worker meanwhile is left alone.
 */
export async function recordOutcomes(services: Services, finished: Finished[]): Promise<void> {
  if (finished.length === 0) return;
  const { db } = services;
  let retries = false;
  let published: PublishedUsage[] = [];
  await db.transaction(async (trx) => {
    const postIds = [...new Set(finished.map((f) => f.claimed.target.postId))].sort();
    const values = finished.map(({ claimed: { target }, outcome }) => ({
      post_id: target.postId,
      account_id: target.accountId,
      status: outcome.kind === 'published' ? 'published' : outcome.kind === 'failed' ? 'failed' : 'processing',
      platform_post_id: outcome.kind === 'published' ? outcome.result.platformPostId : null,
      url: outcome.kind === 'published' ? outcome.result.url : null,
      progress: outcome.kind === 'published' ? (outcome.result.state ?? null) : null,
      // A retry keeps why the attempt did not publish (shown as `lastError` while the target waits).
      failure: outcome.kind === 'failed' ? outcome.failure : outcome.kind === 'retry' ? (outcome.lastError ?? null) : null,
      due_at: outcome.kind === 'retry' ? outcome.at.toISOString() : null,
      keep_started: outcome.kind === 'retry' && outcome.unknown,
      // Attempts are counted by their marks (claim.ts); a look at work the platform is still processing is not one.
      add_attempt: outcome.kind === 'retry' && outcome.takeBackAttempt ? -1 : 0,
    }));
    retries = values.some((v) => v.due_at !== null);
    const rows = await preparedRows<Record<string, unknown>>(trx, 'publishing:record-targets', RECORD_TARGETS, [
      postIds,
      JSON.stringify(values),
    ]);
    const settling = await postsWritten(
      trx,
      rows.map((row) => {
        const { post, rest } = besidePost<TargetRow & { targetCount: number }, SettlingPost>(row);
        const { targetCount, ...target } = rest;
        return { post, target, targetCount };
      }),
    );
    await settlePosts(trx, settling);
    published = publishedUsage(settling);
  });
  for (const { ownerId, profileId, targets } of published) services.usage.record(ownerId, profileId, 'posts', targets);
  await afterCommit(services, finished);
  // A retry due sooner than the next poll still waits for it; one due later is found by the poll too.
  if (retries) await notifyDue(db).catch(() => {});
}

const SETTLED = 'SELECT id FROM settled';

/**
 * The posts' new statuses (jsonb rows, found by their ids through the primary key) and their events. The events'
 * WITH members read the same whatever the events: only their bindings change.
 */
const SETTLE_POSTS = numberedPlaceholders(`
  WITH settled AS (
    UPDATE posts p SET status = v.status, published_at = coalesce(p.published_at, v.published_at), updated_at = now()
    FROM jsonb_to_recordset(?::jsonb) AS v(id text, status text, published_at timestamptz) WHERE p.id = ANY(?::text[]) AND p.id = v.id
    RETURNING p.id
  ), ${emittedWith(SETTLED, []).ctes}
  SELECT count(*) FROM woken`);

/**
 * Moves each post to the status its targets now give, and emits: `post.platform.failed` for each target the batch
 * failed, and the settling event of each post that left `processing`, in one statement of the caller's transaction.
 */
async function settlePosts(trx: Knex.Transaction, settling: Array<PostWritten<SettlingPost>>): Promise<void> {
  if (settling.length === 0) return;
  const events: Array<{ key: string; event: NewEvent }> = [];
  const changes: Array<{ id: string; status: PostStatus; published_at: string | null }> = [];
  for (const { post, targets, written } of settling) {
    for (const target of written.filter((t) => t.status === 'failed')) {
      events.push({
        key: post.id,
        event: {
          ownerId: post.ownerId,
          profileId: post.profileId,
          name: 'post.platform.failed',
          data: { postId: post.id, target: presentTarget(target) },
        },
      });
    }
    const status = post.status === 'processing' || post.status === 'scheduled' ? derivedStatus(targets) : post.status;
    const firstPublished = targets
      .map((t) => t.publishedAt)
      .filter((at): at is Date => at !== null)
      .sort((a, b) => +new Date(a) - +new Date(b))[0];
    changes.push({ id: post.id, status, published_at: firstPublished ? new Date(firstPublished).toISOString() : null });
    if (status !== post.status && status in FINAL_EVENTS) {
      events.push({
        key: post.id,
        event: {
          ownerId: post.ownerId,
          profileId: post.profileId,
          ...postEvent(FINAL_EVENTS[status as keyof typeof FINAL_EVENTS], post, targets),
        },
      });
    }
  }
  const { bindings } = emittedWith(SETTLED, events);
  await preparedRows(trx, 'publishing:settle-posts', SETTLE_POSTS, [
    JSON.stringify(changes),
    changes.map((change) => change.id),
    ...bindings,
  ]);
}

/** What the outcomes teach about the accounts: refused credentials mark them for reconnection; successes are noted. */
interface PublishedUsage {
  ownerId: string;
  profileId: string;
  targets: number;
}

/** The targets this batch published, per owner and profile: the `posts` usage they count. */
function publishedUsage(settling: Array<PostWritten<SettlingPost>>): PublishedUsage[] {
  const usage = new Map<string, PublishedUsage>();
  for (const { post, written } of settling) {
    const count = written.filter((target) => target.status === 'published').length;
    if (count === 0) continue;
    const key = `${post.ownerId} ${post.profileId}`;
    const counted = usage.get(key) ?? { ownerId: post.ownerId, profileId: post.profileId, targets: 0 };
    counted.targets += count;
    usage.set(key, counted);
  }
  return [...usage.values()];
}

async function afterCommit(services: Services, finished: Finished[]): Promise<void> {
  const { db, logger } = services;
  const refused = new Map<string, NonNullable<Extract<Outcome, { kind: 'failed' }>['accountError']>>();
  const succeeded = new Set<string>();
  for (const { claimed, outcome } of finished) {
    if (outcome.kind === 'failed' && outcome.accountError?.needsReconnection) refused.set(claimed.target.accountId, outcome.accountError);
    if (outcome.kind === 'published') succeeded.add(claimed.target.accountId);
  }
  for (const [accountId, error] of refused) {
    await recordPlatformOutcome(db, idOf('acc', accountId), error).catch((err: unknown) =>
      logger.error({ err, accountId }, 'recording an account refusal failed'),
    );
  }
  if (succeeded.size === 0) return;
  await noteSuccesses(
    db,
    [...succeeded].map((id) => idOf('acc', id)),
  ).catch((err: unknown) => logger.warn({ err }, 'noting account successes failed'));
}

/** Outcomes recorded in batches of up to 200; those a dying worker never wrote leave their leases to run out (the next claim reconciles). */
export function outcomeRecorder(services: Services): Batcher<Finished> {
  return new Batcher((batch) => recordOutcomes(services, batch), 200);
}
