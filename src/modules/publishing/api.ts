import type { Knex } from 'knex';
import { PostStatusConflictError } from './errors.js';
import type { TargetRow } from './rows.js';

// What other areas read and change of the publishing area's tables (posts, their targets, queue slots).

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

/**
 * A profile being deleted, in the deletion's transaction: its scheduled posts (queued ones too) and drafts are
 * cancelled as DELETE /posts/{id} cancels one, and its queue slots are deleted. 409 while one of its posts is being published
 * (processing, or claimed by a worker at this moment): the deletion then changes nothing, and never leaves a post
 * half published for a profile that is gone. Published, failed and cancelled posts are kept as they are.
 */
export async function releaseProfilePosts(trx: Knex.Transaction, profileId: string): Promise<void> {
  const targets = () =>
    trx('postTargets').whereIn('postId', trx('posts').where({ profileId }).whereIn('status', ['scheduled', 'processing']).select('id'));
  // Locked without waiting: a worker claiming one right now holds it (and then waits for nothing of ours).
  const locked = await targets().forUpdate().skipLocked().select('postId', 'accountId');
  const [{ n }] = (await targets().count({ n: '*' })) as [{ n: string }];
  // Read again under the targets' locks: a claim committed since made its post processing.
  const busy = (await trx('posts').where({ profileId, status: 'processing' }).first('id')) as { id: string } | undefined;
  if (busy || locked.length < Number(n))
    throw new PostStatusConflictError(
      `${busy ? `The profile's post ${busy.id}` : "One of the profile's posts"} is being published; delete the profile once it has settled.`,
    );
  const waiting = ['scheduled', 'draft'];
  const cancelled = trx('posts').where({ profileId }).whereIn('status', waiting).select('id');
  await trx('postTargets').whereIn('postId', cancelled).whereIn('status', waiting).update({ status: 'cancelled', dueAt: null });
  await trx('posts').where({ profileId }).whereIn('status', waiting).update({ status: 'cancelled', updatedAt: trx.fn.now() });
  await trx('queueSlots').where({ profileId }).delete();
}
