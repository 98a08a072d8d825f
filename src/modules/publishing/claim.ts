import type { Knex } from 'knex';
import { emitEvents } from '../events/emit.js';
import { POST_COLUMNS, type PostRow, targetColumns, type TargetRow } from './models.js';
import { postEvent } from './present.js';

/** A claimed target: `unknownSince` is set when the last attempt never recorded its outcome (reconcile first). */
export interface Claimed {
  target: TargetRow;
  unknownSince: Date | null;
}

/**
 * Leases up to `limit` due targets (FOR UPDATE SKIP LOCKED: any number of workers share the table and never take
 * one target twice) and marks each attempt started, committed before any platform is called. A target whose
 * attempt is still marked from before was left by a worker that stopped mid-call: it is returned with
 * `unknownSince`, and no new attempt is counted for it. Posts whose first targets start move to `processing`
 * and emit `post.processing`, in the same transaction.
 */
export async function claimDue(db: Knex, limit: number, leaseSeconds: number): Promise<Claimed[]> {
  return db.transaction(async (trx) => {
    const { rows } = await trx.raw(`
      WITH due AS (
        SELECT post_id, account_id, attempt_started_at AS prior FROM post_targets
        WHERE status IN ('scheduled', 'processing') AND due_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ORDER BY due_at LIMIT ? FOR UPDATE SKIP LOCKED
      )
      UPDATE post_targets t SET status = 'processing', locked_until = now() + make_interval(secs => ?),
        attempts = t.attempts + CASE WHEN due.prior IS NULL THEN 1 ELSE 0 END,
        attempt_started_at = coalesce(due.prior, now())
      FROM due WHERE t.post_id = due.post_id AND t.account_id = due.account_id
      RETURNING ${targetColumns('t')}, due.prior AS "unknownSince"`,
    [limit, leaseSeconds]) as { rows: Array<TargetRow & { unknownSince: Date | null }> };
    if (rows.length === 0) return [];
    const postIds = [...new Set(rows.map((row) => row.postId))];
    const { rows: started } = await trx.raw(`
      UPDATE posts SET status = 'processing', updated_at = now()
      WHERE id IN (SELECT id FROM posts WHERE id = ANY(?) AND status = 'scheduled' ORDER BY id FOR UPDATE)
      RETURNING ${POST_COLUMNS}`, [postIds]) as { rows: PostRow[] };
    if (started.length > 0) {
      const targets = await trx('postTargets').whereIn('postId', started.map((post) => post.id)) as TargetRow[];
      await emitEvents(trx, started.map((post) => ({
        ownerId: post.ownerId, profileId: post.profileId, ...postEvent('post.processing', post, targets.filter((target) => target.postId === post.id)),
      })));
    }
    return rows.map(({ unknownSince, ...target }) => ({ target, unknownSince }));
  });
}
