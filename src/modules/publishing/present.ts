import type { Post, PostRow, PostTarget, TargetRow } from './models.js';

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
    nextAttemptAt: row.status === 'processing' && row.dueAt && new Date(row.dueAt).getTime() > Date.now() ? new Date(row.dueAt).toISOString() : null,
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
    scheduledAt: new Date(post.scheduledAt).toISOString(),
    publishedAt: post.publishedAt ? new Date(post.publishedAt).toISOString() : null,
    timezone: post.timezone,
    slotId: post.slotId,
    createdAt: new Date(post.createdAt).toISOString(),
    updatedAt: new Date(post.updatedAt).toISOString(),
  };
}

/** The `data` of post.scheduled / processing / published / partial / failed. */
export function postEventData(post: PostRow, targets: TargetRow[]) {
  return {
    postId: post.id,
    status: post.status,
    scheduledAt: post.publishNow ? null : new Date(post.scheduledAt).toISOString(),
    targets: [...targets].sort((a, b) => a.position - b.position).map(presentTarget),
  };
}
