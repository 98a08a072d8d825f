import type { CommentActions } from '../capabilities/comments.js';
import type { IncomingComment, IncomingEvent } from '../capabilities/webhooks.js';
import type { GraphObjectParser } from '../meta/graph-webhook.js';

/** A page `feed` change about a comment, as Meta sends it (times in seconds). */
interface FeedComment {
  item?: string;
  verb?: string;
  comment_id?: string;
  post_id?: string;
  parent_id?: string;
  from?: { id?: string; name?: string };
  message?: string;
  created_time?: number | string;
}
interface FeedEntry {
  id?: string;
  time?: number;
  changes?: Array<{ field?: string; value?: FeedComment }>;
}

const CHANGES: Record<string, IncomingComment['change']> = {
  add: 'added',
  edited: 'edited',
  edit: 'edited',
  remove: 'removed',
  hide: 'hidden',
  unhide: 'unhidden',
};

/** Meta's webhook times are seconds (Messenger's are milliseconds): either, read as a date. */
function timeOf(value: number | string | undefined): Date | null {
  if (value === undefined) return null;
  const number = typeof value === 'number' ? value : /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(number)) return null;
  return new Date(number < 1e12 ? number * 1000 : number);
}

/** A page may hide and delete others' comments on its posts and answer them privately; its own it may only delete. */
function actionsOn(byPage: boolean): CommentActions {
  return byPage
    ? { hide: false, delete: true, reply: true, replyPrivately: false }
    : { hide: true, delete: true, reply: true, replyPrivately: true };
}

/**
 * The comment changes of a page's `feed` webhook (`item: comment`, verbs add, edited, remove, hide, unhide); other
 * feed items (posts, reactions) are not ours to read. A top-level comment's `parent_id` is its post.
 */
function feedComments(entries: FeedEntry[]): IncomingEvent[] {
  const events: IncomingEvent[] = [];
  for (const entry of entries) {
    for (const { field, value } of entry.changes ?? []) {
      if (field !== 'feed' || value?.item !== 'comment' || !value.comment_id || !value.post_id) continue;
      const change = CHANGES[value.verb ?? ''];
      const pageId = entry.id ?? value.post_id.split('_')[0];
      if (!change || !pageId) continue;
      const createdAt = timeOf(value.created_time);
      const from = value.from?.id ? { id: value.from.id, name: value.from.name ?? null, username: null } : null;
      const carriesComment = change === 'added' || change === 'edited';
      events.push({
        kind: 'comment',
        change,
        accountId: null,
        platformAccountId: pageId,
        platformPostId: value.post_id,
        platformCommentId: value.comment_id,
        parentId: value.parent_id && value.parent_id !== value.post_id ? value.parent_id : null,
        from,
        text: carriesComment ? (value.message ?? '') : null,
        createdAt,
        at: timeOf(entry.time) ?? createdAt ?? new Date(),
        can: carriesComment && from ? actionsOn(from.id === pageId) : null,
      });
    }
  }
  return events;
}

/** A page's `feed` field: the comments on its posts. */
export const pageFeed: GraphObjectParser = {
  object: 'page',
  parse: (notification) => feedComments((notification.entry ?? []) as FeedEntry[]),
};
