import type { EventData, NewEvent } from '../events/emit.js';
import type { Post, PostRow, PostTarget, TargetRow } from './rows.js';

export function presentTarget(row: TargetRow): PostTarget {
  return {
    accountId: row.accountId,
    platform: row.platform as PostTarget['platform'],
    status: row.status,
    platformPostId: row.platformPostId,
    url: row.url,
    publishedAt: row.publishedAt ? new Date(row.publishedAt).toISOString() : null,
    attempts: row.attempts,
    failure: row.status === 'failed' ? row.failure : null,
    lastError: row.status === 'processing' ? row.failure : null,
    // A due time already past is an attempt under way (or about to be), not one to wait for.
    nextAttemptAt:
      row.status === 'processing' && row.dueAt && new Date(row.dueAt).getTime() > Date.now() ? new Date(row.dueAt).toISOString() : null,
  };
}

/** The post with its targets in the order they were given. */
export function presentPost(post: PostRow, targets: TargetRow[]): Post {
  return {
    id: post.id,
    profileId: post.profileId,
    status: post.status,
    text: post.text,
    mediaIds: post.mediaIds,
    targets: [...targets].sort((a, b) => a.position - b.position).map(presentTarget),
    platformOptions: post.platformOptions as Post['platformOptions'],
    // A draft's stored time is when it was saved, not a time it is due.
    scheduledAt: post.status === 'draft' ? null : new Date(post.scheduledAt).toISOString(),
    publishedAt: post.publishedAt ? new Date(post.publishedAt).toISOString() : null,
    timezone: post.timezone,
    slotId: post.slotId,
    createdAt: new Date(post.createdAt).toISOString(),
    updatedAt: new Date(post.updatedAt).toISOString(),
  };
}

/** Each event of a post's life, with the status the post has when it is emitted. */
const STATUS_OF = {
  'post.scheduled': 'scheduled',
  'post.processing': 'processing',
  'post.published': 'published',
  'post.partial': 'partial',
  'post.failed': 'failed',
} as const;
export type PostEventName = keyof typeof STATUS_OF;
type PostEvent<N extends PostEventName> = { [K in N]: Pick<NewEvent<K>, 'name' | 'data'> }[N];

/** post.scheduled / processing / published / partial / failed with its data: the post in the event's status, and its targets. */
export function postEvent<N extends PostEventName>(
  name: N,
  post: Pick<PostRow, 'id' | 'publishNow' | 'scheduledAt'>,
  targets: TargetRow[],
): PostEvent<N> {
  const data: EventData<PostEventName> = {
    postId: post.id,
    status: STATUS_OF[name],
    scheduledAt: post.publishNow ? null : new Date(post.scheduledAt).toISOString(),
    targets: [...targets].sort((a, b) => a.position - b.position).map(presentTarget),
  };
  // The data's status is the event's, so each name gets its own data; TypeScript cannot follow that through `N`.
  return { name, data } as PostEvent<N>;
}
