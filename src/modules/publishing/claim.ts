import type { Knex } from 'knex';
import { emitEvents } from '../events/emit.js';
import { besidePost, postColumns, type PostRow, targetColumns, type TargetRow } from './rows.js';
import { postsWritten, type WrittenTarget } from './read.js';
import { postEvent } from './present.js';

/** A claimed target: `unknownSince` is set when the last attempt never recorded its outcome (reconcile first). */
export interface Claimed {
  target: TargetRow;
  unknownSince: Date | null;
}

/** What one claim took: its targets, and their posts (as they were when claimed) by id. */
export interface Claim {
  claimed: Claimed[];
  posts: Map<string, PostRow>;
}

/**
 * Leases up to `limit` due targets (FOR UPDATE SKIP LOCKED: any number of workers share the table and never take
 * one target twice). A claim is not an attempt: each attempt is marked just before its own call
 * (`markAttemptsStarted`), so a worker that dies leaves marked only the calls it had made. A target whose attempt
 * is still marked from before was left by a worker that stopped mid-call: it is returned with `unknownSince`.
 * Posts whose first targets start move to `processing` and emit `post.processing`, in the same transaction.
 * One statement leases the targets, starts their posts (locked in id order, as the outcomes' settlement locks
 * them) and reads the posts back; the targets of a started post are read again only when it has some this claim
 * did not take.
 */
export async function claimDue(db: Knex, limit: number, leaseSeconds: number): Promise<Claim> {
  return db.transaction(async (trx) => {
    // The due targets are taken by walking the partial index in due order, LIMIT at a time. Statistics taken before
    // a burst of new posts (thousands due now, where the planner expects a few) make a bitmap scan look cheaper:
    // it reads and sorts every due target for each claim, which made the claims of a burst quadratic.
    await trx.raw('SET LOCAL enable_bitmapscan = off');
    const { rows } = (await trx.raw(
      `
      WITH due AS (
        SELECT post_id, account_id FROM post_targets
        WHERE status IN ('scheduled', 'processing') AND due_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED
      ),
      claimed AS (
        UPDATE post_targets t SET status = 'processing', locked_until = now() + make_interval(secs => ?)
        FROM due WHERE t.post_id = due.post_id AND t.account_id = due.account_id
        RETURNING t.*
      ),
      started AS (
        UPDATE posts SET status = 'processing', updated_at = now()
        WHERE id IN (SELECT id FROM posts WHERE id IN (SELECT post_id FROM claimed) AND status = 'scheduled' ORDER BY id FOR UPDATE)
        RETURNING id, updated_at
      )
      SELECT ${targetColumns('c')}, c.attempt_started_at AS "unknownSince", ${postColumns('p', true)},
        s.updated_at AS "startedAt", CASE WHEN s.id IS NULL THEN 0 ELSE (SELECT count(*) FROM post_targets o WHERE o.post_id = c.post_id) END::int AS "targetCount"
      FROM claimed c JOIN posts p ON p.id = c.post_id LEFT JOIN started s ON s.id = c.post_id`,
      [limit, leaseSeconds],
    )) as { rows: Array<Record<string, unknown>> };
    const claim: Claim = { claimed: [], posts: new Map() };
    const started: WrittenTarget[] = [];
    for (const row of rows) {
      const { post, rest } = besidePost<TargetRow & { unknownSince: Date | null; startedAt: Date | null; targetCount: number }>(row);
      const { unknownSince, startedAt, targetCount, ...target } = rest;
      claim.claimed.push({ target, unknownSince });
      claim.posts.set(post.id, post);
      if (startedAt) started.push({ post: { ...post, status: 'processing', updatedAt: startedAt }, target, targetCount });
    }
    if (started.length === 0) return claim;
    await emitEvents(
      trx,
      (await postsWritten(trx, started)).map(({ post, targets }) => ({
        ownerId: post.ownerId,
        profileId: post.profileId,
        ...postEvent('post.processing', post, targets),
      })),
    );
    return claim;
  });
}

type TargetKey = Pick<TargetRow, 'postId' | 'accountId'>;

/** The targets among `targets` this worker still holds (processing, leased), locked in key order. */
function heldTargets(targets: TargetKey[], skipLocked: boolean): [string, unknown[]] {
  return [
    `
    SELECT post_id, account_id FROM post_targets
    WHERE (post_id, account_id) IN (SELECT * FROM unnest(?::text[], ?::text[])) AND status = 'processing' AND locked_until IS NOT NULL
    ORDER BY post_id, account_id FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`,
    [targets.map((t) => t.postId), targets.map((t) => t.accountId)],
  ];
}

/**
 * Marks an attempt started and counts it, committed just before the platform is called: a worker that dies
 * after this leaves the target to be reconciled (or failed as `unknown`) rather than sent again.
 */
export async function markAttemptsStarted(db: Knex, targets: TargetKey[]): Promise<void> {
  const [held, bindings] = heldTargets(targets, false);
  await db.raw(
    `
    UPDATE post_targets t SET attempt_started_at = now(), attempts = t.attempts + 1
    FROM (${held}) h WHERE t.post_id = h.post_id AND t.account_id = h.account_id`,
    bindings as never,
  );
}

/**
 * Extends the leases of targets still held. One being recorded (or saved) right now is skipped rather than
 * waited for: its lease is given up or extended by that statement.
 */
export async function renewLeases(db: Knex, targets: TargetKey[], leaseSeconds: number): Promise<void> {
  const [held, bindings] = heldTargets(targets, true);
  await db.raw(
    `
    UPDATE post_targets t SET locked_until = now() + make_interval(secs => ?)
    FROM (${held}) h WHERE t.post_id = h.post_id AND t.account_id = h.account_id`,
    [leaseSeconds, ...bindings] as never,
  );
}
