import type { Knex } from 'knex';
import { NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { assertProfileInScope, listedProfiles, type Principal } from '../auth/principal.js';
import { decodeKeyset, keysetPage } from '../../lib/pagination.js';
import { idOf } from '../../lib/ids.js';
import { findAccount } from '../accounts/read.js';
import type { Post, PostRow, PostStatus, TargetRow } from './rows.js';
import { presentPost } from './present.js';

/**
 * The owner's post, or 404 (also another owner's); 403 outside a restricted key's profiles. `lock`: the row lock to
 * take (`forNoKeyUpdate` for a change of the post's own members, which a claim's `FOR UPDATE` still waits for).
 */
export async function findPost(db: Knex, principal: Principal, id: string, lock?: 'forUpdate' | 'forNoKeyUpdate'): Promise<PostRow> {
  const query = db('posts').where({ id, ownerId: principal.ownerId }).first();
  if (lock) query[lock]();
  const post = (await query) as PostRow | undefined;
  if (!post) throw new NotFoundError('post');
  assertProfileInScope(principal, post.profileId);
  return post;
}

export async function targetsOf(db: Knex, postIds: string[]): Promise<TargetRow[]> {
  if (postIds.length === 0) return [];
  return db('postTargets').whereIn('postId', postIds).orderBy(['postId', 'position']) as Promise<TargetRow[]>;
}

/** A target a statement just wrote, with its post (what the statement read of it) and how many targets that post has. */
export interface WrittenTarget<Post extends Pick<PostRow, 'id'> = PostRow> {
  post: Post;
  target: TargetRow;
  targetCount: number;
}

/** A post with the targets a statement just wrote of it (`written`) and all the targets it has now. */
export interface PostWritten<Post extends Pick<PostRow, 'id'> = PostRow> {
  post: Post;
  written: TargetRow[];
  targets: TargetRow[];
}

/**
 * The posts of targets a statement just wrote, each with all its targets: only the posts that have targets the
 * statement did not write have them read, by a statement of their own after it (which sees its writes).
 */
export async function postsWritten<Post extends Pick<PostRow, 'id'>>(
  db: Knex,
  written: Array<WrittenTarget<Post>>,
): Promise<Array<PostWritten<Post>>> {
  const byPost = new Map<string, PostWritten<Post> & { count: number }>();
  for (const { post, target, targetCount } of written) {
    const entry = byPost.get(post.id) ?? { post, written: [], targets: [], count: targetCount };
    entry.written.push(target);
    byPost.set(post.id, entry);
  }
  const partly = [...byPost.values()].filter((entry) => entry.written.length < entry.count);
  const others = await targetsOf(
    db,
    partly.map((entry) => entry.post.id),
  );
  return [...byPost.values()].map(({ post, written: own, count }) => ({
    post,
    written: own,
    targets: own.length < count ? others.filter((target) => target.postId === post.id) : own,
  }));
}

export async function getPost(db: Knex, principal: Principal, id: string): Promise<Post> {
  const post = await findPost(db, principal, id);
  return presentPost(post, await targetsOf(db, [post.id]));
}

/**
 * Latest `scheduledAt` first, keyset-paginated on (scheduledAt, id); filters combine with AND. Filtered by account,
 * the account's targets lead: each carries its post's `scheduledAt` and id, so their index gives the same order.
 */
export async function listPosts(
  db: Knex,
  principal: Principal,
  query: {
    profileId?: string;
    accountId?: string;
    status?: PostStatus;
    from?: string;
    to?: string;
    limit?: number;
    cursor?: string;
  },
): Promise<{ data: Post[]; nextCursor: string | null }> {
  const limit = query.limit ?? 20;
  if (query.from && query.to && Date.parse(query.from) > Date.parse(query.to)) {
    throw new ValidationFailedError([{ path: 'query/from', message: 'is after `to`', code: 'range' }]);
  }
  const after = decodeKeyset(query.cursor, ['time', 'id']);
  const [rows, time, id] = query.accountId
    ? [
        db('postTargets').join('posts', 'posts.id', 'postTargets.postId').where('postTargets.accountId', query.accountId),
        'postTargets.scheduledAt',
        'postTargets.postId',
      ]
    : [db('posts'), 'posts.scheduledAt', 'posts.id'];
  rows
    .select('posts.*')
    .where('posts.ownerId', principal.ownerId)
    .orderBy([
      { column: time, order: 'desc' },
      { column: id, order: 'desc' },
    ])
    .limit(limit + 1);
  const profiles = await listedProfiles(db, principal, query.profileId);
  if (profiles) rows.whereIn('posts.profileId', profiles);
  // The account filtered by is one the caller may read, as the profile is (404, 403).
  if (query.accountId) await findAccount(db, principal, idOf('acc', query.accountId));
  if (query.status) rows.where('posts.status', query.status);
  if (query.from) rows.where(time, '>=', new Date(query.from));
  if (query.to) rows.where(time, '<', new Date(query.to));
  if (after) rows.whereRaw('(??, ??) < (?::timestamptz, ?)', [time, id, ...after]);
  const page = keysetPage((await rows) as PostRow[], limit, (post) => [new Date(post.scheduledAt).toISOString(), post.id]);
  const targets = await targetsOf(
    db,
    page.rows.map((post) => post.id),
  );
  return {
    data: page.rows.map((post) =>
      presentPost(
        post,
        targets.filter((t) => t.postId === post.id),
      ),
    ),
    nextCursor: page.nextCursor,
  };
}
