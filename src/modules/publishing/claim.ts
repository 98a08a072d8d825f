import type { Knex } from 'knex';
import { emitEvents } from '../events/emit.js';
import { POST_COLUMNS, type PostRow, targetColumns, type TargetRow } from './rows.js';
import { postEvent } from './present.js';

/** A claimed target: `unknownSince` is set when the last attempt never recorded its outcome (reconcile first). */
export interface Claimed {
  target: TargetRow;
  unknownSince: Date | null;
}

/**
 * Leases up to `limit` due targets (FOR UPDATE SKIP LOCKED: any number of workers share the table and never take
 * one target twice). A claim is not an attempt: each attempt is marked just before its own call
 * (`markAttemptsStarted`), so a worker that dies leaves marked only the calls it had made. A target whose attempt
 * is still marked from before was left by a worker that stopped mid-call: it is returned with `unknownSince`.
 * Posts whose first targets start move to `processing` and emit `post.processing`, in the same transaction.
 */
export async function claimDue(db: Knex, limit: number, leaseSeconds: number): Promise<Claimed[]> {
  return db.transaction(async (trx) => {
    const { rows } = (await trx.raw(
      `
      WITH due AS (
        SELECT post_id, account_id FROM post_targets
        WHERE status IN ('scheduled', 'processing') AND due_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED
      )
      UPDATE post_targets t SET status = 'processing', locked_until = now() + make_interval(secs => ?)
      FROM due WHERE t.post_id = due.post_id AND t.account_id = due.account_id
      RETURNING ${targetColumns('t')}, t.attempt_started_at AS "unknownSince"`,
      [limit, leaseSeconds],
    )) as { rows: Array<TargetRow & { unknownSince: Date | null }> };
    if (rows.length === 0) return [];
    const postIds = [...new Set(rows.map((row) => row.postId))];
    const { rows: started } = (await trx.raw(
      `
      UPDATE posts SET status = 'processing', updated_at = now()
      WHERE id IN (SELECT id FROM posts WHERE id = ANY(?) AND status = 'scheduled' ORDER BY id FOR UPDATE)
      RETURNING ${POST_COLUMNS}`,
      [postIds],
    )) as { rows: PostRow[] };
    if (started.length > 0) {
      const targets = (await trx('postTargets').whereIn(
        'postId',
        started.map((post) => post.id),
      )) as TargetRow[];
      await emitEvents(
        trx,
        started.map((post) => ({
          ownerId: post.ownerId,
          profileId: post.profileId,
          ...postEvent(
            'post.processing',
            post,
            targets.filter((target) => target.postId === post.id),
          ),
        })),
      );
    }
    return rows.map(({ unknownSince, ...target }) => ({ target, unknownSince }));
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
