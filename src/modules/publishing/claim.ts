import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { numberedPlaceholders, preparedRows } from '../../db/prepared.js';
import { emitEvents, emittedWith, type NewEvent } from '../events/emit.js';
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

/**
 * The targets among `targets` this worker still holds (processing, leased), locked in key order. Found through the
 * primary key by their posts' ids, as startAhead finds its own.
 */
function heldTargets(targets: TargetKey[], skipLocked: boolean): [string, unknown[]] {
  const postIds = targets.map((t) => t.postId);
  return [
    `
    SELECT post_id, account_id FROM post_targets
    WHERE post_id = ANY(?::text[]) AND (post_id, account_id) IN (SELECT * FROM unnest(?::text[], ?::text[]))
      AND status = 'processing' AND locked_until IS NOT NULL
    ORDER BY post_id, account_id FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`,
    [postIds, postIds, targets.map((t) => t.accountId)],
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

/** A target leased ahead of its due time, under the token of its claim. */
export interface LeasedAhead {
  claimed: Claimed;
  token: string;
  /** When its lease runs out, as the database wrote it. */
  lockedUntil: Date;
  /** The `post.processing` its post emits if its start moves the post to processing (built by the claim, keyed by post id). */
  started: { key: string; event: NewEvent };
}

/**
 * Leases up to `limit` scheduled targets due within `aheadSeconds`, soonest first, under a new token (SKIP LOCKED, as
 * claimDue), and changes nothing else: not their status, not their post's, no event. The lease lasts until
 * `leaseSeconds` after the due time, so nothing renews it before then; a worker that dies holding it leaves the target
 * to another from then on, as one that died holding a due target does. Each post's `post.processing` is built here,
 * its targets shown as they will be once started: the start only chooses whether it is written.
 */
export async function claimAhead(
  db: Knex,
  limit: number,
  aheadSeconds: number,
  leaseSeconds: number,
): Promise<{ claim: Claim; ahead: LeasedAhead[] }> {
  const token = randomUUID();
  const rows = await db.transaction(async (trx) => {
    // As in claimDue: the partial index walked in due order, never a bitmap scan of every due target.
    await trx.raw('SET LOCAL enable_bitmapscan = off');
    return (
      (await trx.raw(
        `
      WITH due AS (
        SELECT post_id, account_id FROM post_targets
        WHERE status = 'scheduled' AND due_at <= now() + make_interval(secs => ?) AND (locked_until IS NULL OR locked_until < now())
        ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED
      ),
      leased AS (
        UPDATE post_targets t SET lease_token = ?, locked_until = greatest(t.due_at, now()) + make_interval(secs => ?)
        FROM due WHERE t.post_id = due.post_id AND t.account_id = due.account_id
        RETURNING t.*
      )
      SELECT ${targetColumns('c')}, ${postColumns('p', true)},
        (SELECT count(*) FROM post_targets o WHERE o.post_id = c.post_id)::int AS "targetCount"
      FROM leased c JOIN posts p ON p.id = c.post_id`,
        [aheadSeconds, limit, token, leaseSeconds],
      )) as { rows: Array<Record<string, unknown>> }
    ).rows;
  });
  const claim: Claim = { claimed: [], posts: new Map() };
  const written: WrittenTarget[] = [];
  for (const row of rows) {
    const { post, rest } = besidePost<TargetRow & { targetCount: number }>(row);
    const { targetCount, ...target } = rest;
    claim.claimed.push({ target, unknownSince: null });
    claim.posts.set(post.id, post);
    // As its start will leave it: processing, due now (no next attempt to show).
    written.push({ post: { ...post, status: 'processing' }, target: { ...target, status: 'processing', dueAt: null }, targetCount });
  }
  const events = new Map<string, LeasedAhead['started']>();
  for (const { post, written: own, targets } of await postsWritten(db, written)) {
    // A post's other targets, read after the claim, show ours as they were: ours are shown started.
    const shown = targets.map((target) => own.find((o) => o.accountId === target.accountId) ?? target);
    events.set(post.id, {
      key: post.id,
      event: { ownerId: post.ownerId, profileId: post.profileId, ...postEvent('post.processing', post, shown) },
    });
  }
  return {
    claim,
    ahead: claim.claimed.map((claimed, i) => ({
      claimed,
      token,
      lockedUntil: rows[i]!.lockedUntil as Date,
      started: events.get(claimed.target.postId)!,
    })),
  };
}

const MOVED = 'SELECT id FROM moved';

/**
 * startAhead's statement. The targets are found by their posts' ids (`$1`) through the primary key: by the batch's
 * rows alone, statistics taken before a burst made the planner read every due target for each batch. The events'
 * WITH members read the same whatever the events: only their bindings change.
 */
const START_AHEAD = numberedPlaceholders(`
  WITH batch AS (
    SELECT * FROM unnest(?::text[], ?::text[], ?::uuid[], ?::boolean[]) AS b(post_id, account_id, token, marked)
  ),
  started AS (
    UPDATE post_targets t SET status = 'processing', lease_token = NULL, locked_until = now() + make_interval(secs => ?),
      attempt_started_at = CASE WHEN b.marked THEN now() ELSE t.attempt_started_at END, attempts = t.attempts + b.marked::int
    FROM batch b
    WHERE t.post_id = ANY($1::text[]) AND t.post_id = b.post_id AND t.account_id = b.account_id AND t.lease_token = b.token
      AND t.status = 'scheduled' AND t.due_at <= now()
    RETURNING t.post_id, t.account_id, b.token
  ),
  moved AS (
    UPDATE posts SET status = 'processing', updated_at = now()
    WHERE id IN (SELECT id FROM posts WHERE id IN (SELECT post_id FROM started) AND status = 'scheduled' ORDER BY id FOR UPDATE)
    RETURNING id
  ), ${emittedWith(MOVED, []).ctes}
  SELECT post_id AS "postId", account_id AS "accountId", token, false AS early FROM started
  UNION ALL
  SELECT t.post_id, t.account_id, b.token, true FROM batch b JOIN post_targets t ON t.post_id = b.post_id AND t.account_id = b.account_id
  WHERE t.post_id = ANY($1::text[]) AND t.lease_token = b.token AND t.status = 'scheduled' AND t.due_at > now()
  UNION ALL
  SELECT NULL, NULL, NULL, NULL FROM woken`);

/**
 * Starts targets leased ahead, now due, in one statement: those still scheduled, due by the database's clock and
 * under the lease's token move to processing with their attempt marked (committed before any call: a worker that
 * dies after it leaves them to be reconciled, never sent again), their posts still scheduled move to processing and
 * emit `post.processing`. A target edited since (written anew, no token), moved in time (token cleared) or cancelled
 * is not started: its change wins. `marked`: whether the attempt is marked (it goes straight to its call). Answers
 * the leases (`leaseOf`) started, and those not due yet by the database's clock (kept for later). A worker may hold
 * one target twice, under a lease of its own that ran out and the one that took it over: the token tells them apart.
 */
export async function startAhead(
  db: Knex,
  ahead: Array<{ leased: LeasedAhead; marked: boolean }>,
  leaseSeconds: number,
): Promise<{ started: Set<string>; early: Set<string> }> {
  // In key order: two starts lock their targets in the same order.
  const batch = [...ahead].sort((a, b) => leaseOf(a.leased.claimed.target).localeCompare(leaseOf(b.leased.claimed.target)));
  const events = new Map(batch.map(({ leased }) => [leased.started.key, leased.started]));
  const rows = await preparedRows<TargetKey & { token: string; early: boolean | null }>(db, 'publishing:start-ahead', START_AHEAD, [
    ...aheadColumns(batch.map(({ leased }) => leased)),
    batch.map(({ marked }) => marked),
    leaseSeconds,
    ...emittedWith(MOVED, [...events.values()]).bindings,
  ]);
  const started = new Set<string>();
  const early = new Set<string>();
  for (const row of rows) if (row.early !== null) (row.early ? early : started).add(leaseOf(row, row.token));
  return { started, early };
}

/**
 * Extends the leases of targets held ahead that are still theirs by `leaseSeconds` from now or, with `release`,
 * gives them back (a worker stopping), for another worker to lease at once.
 */
export async function holdAhead(db: Knex, ahead: LeasedAhead[], hold: { leaseSeconds: number } | 'release'): Promise<void> {
  if (ahead.length === 0) return;
  const [set, bindings] =
    hold === 'release'
      ? ['locked_until = NULL, lease_token = NULL', []]
      : ['locked_until = now() + make_interval(secs => ?)', [hold.leaseSeconds]];
  const columns = aheadColumns(ahead);
  await db.raw(
    `
    UPDATE post_targets t SET ${set}
    FROM unnest(?::text[], ?::text[], ?::uuid[]) AS b(post_id, account_id, token)
    WHERE t.post_id = ANY(?::text[]) AND t.post_id = b.post_id AND t.account_id = b.account_id AND t.lease_token = b.token
      AND t.status = 'scheduled'`,
    [...bindings, ...columns, columns[0]],
  );
}

function aheadColumns(ahead: LeasedAhead[]): [string[], string[], string[]] {
  return [ahead.map((a) => a.claimed.target.postId), ahead.map((a) => a.claimed.target.accountId), ahead.map((a) => a.token)];
}

/** A target's key and (`token`) the lease it is held under, as one string. */
export function leaseOf(target: TargetKey, token = ''): string {
  return `${target.postId} ${target.accountId} ${token}`;
}
