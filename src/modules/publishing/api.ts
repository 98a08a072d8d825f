import type { Knex } from 'knex';
import type { TargetRow } from './rows.js';

// What other areas read of the publishing area's tables (posts and their targets).

/** The target of a post on an account, by our post id or the platform's. */
export async function targetOn(
  db: Knex,
  accountId: string,
  post: { postId: string } | { platformPostId: string },
): Promise<Pick<TargetRow, 'postId' | 'platformPostId' | 'status' | 'publishedAt'> | undefined> {
  return db('postTargets').where({ accountId }).where(post).first('postId', 'platformPostId', 'status', 'publishedAt');
}

/** Our post id where the service published the platform's post on the account: a subquery for the caller's statement. */
export function ourPostId(db: Knex, accountId: string, platformPostId: string): Knex.Raw {
  return db.raw('(SELECT post_id FROM post_targets WHERE account_id = ? AND platform_post_id = ? LIMIT 1)', [accountId, platformPostId]);
}

/** How many posts the service published on the account from `start` until `middle`, and from `middle` until `end`. */
export async function publishedBetween(
  db: Knex,
  accountId: string,
  [start, middle, end]: [Date, Date, Date],
): Promise<{ before: number; now: number }> {
  const row = (await db('postTargets')
    .where({ accountId, status: 'published' })
    .where('publishedAt', '>=', start)
    .where('publishedAt', '<', end)
    .first(
      db.raw('count(*) filter (where published_at >= ?) as now', [middle]),
      db.raw('count(*) filter (where published_at < ?) as before', [middle]),
    )) as { now: string | number; before: string | number };
  return { now: Number(row.now), before: Number(row.before) };
}

/**
 * The owner's targets published since `since` or still to publish: a target that waits will count when it is
 * published.
 */
export async function targetsPublishedOrDueSince(db: Knex, ownerId: string, since: Date): Promise<number> {
  const { rows } = (await db.raw(
    `SELECT count(*)::int AS n FROM post_targets t JOIN posts p ON p.id = t.post_id
    WHERE p.owner_id = ? AND (t.status IN ('scheduled', 'processing') OR (t.status IN ('published', 'deleted') AND t.published_at >= ?))`,
    [ownerId, since],
  )) as { rows: Array<{ n: number }> };
  return rows[0]!.n;
}

/**
 * The owner's posts not published yet (scheduled, queued, drafts, being published) that use the media: what
 * deleting it would break. Read in the caller's transaction, after it locked the media row (`media/library.ts`).
 */
export async function unpublishedPostsUsing(db: Knex, ownerId: string, mediaId: string): Promise<Array<{ id: string; status: string }>> {
  return db('posts')
    .where({ ownerId })
    .whereIn('status', ['scheduled', 'processing', 'draft'])
    .whereRaw('media_ids @> ARRAY[?]::text[]', [mediaId])
    .orderBy('id')
    .limit(10)
    .select('id', 'status');
}
