import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { commentsAnsweredPrivately } from '../messaging/api.js';
import type { CommentRow } from './rows.js';

type Comment = components['schemas']['Comment'];

/** How many listed replies each of these comments has, by platform comment id. */
async function replyCounts(db: Knex, accountId: string, rows: CommentRow[]): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map();
  const counts = (await db('comments')
    .select('parentId')
    .count<Array<{ parentId: string; count: string }>>('* as count')
    .where({ accountId, deleted: false, known: true })
    .whereIn(
      'parentId',
      rows.map((row) => row.platformCommentId),
    )
    .groupBy('parentId')) as Array<{ parentId: string; count: string }>;
  return new Map(counts.map(({ parentId, count }) => [parentId, Number(count)]));
}

/**
 * Which of these comments were answered privately (a message stored as the reply to it): a platform takes one
 * private reply per comment, so those can take none more, whatever the platform said when the comment came.
 */
async function answeredPrivately(db: Knex, accountId: string, rows: CommentRow[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  return commentsAnsweredPrivately(
    db,
    accountId,
    rows.map((row) => row.platformCommentId),
  );
}

export async function presentComments(db: Knex, accountId: string, rows: CommentRow[]): Promise<Map<string, Comment>> {
  const [replies, answered] = await Promise.all([replyCounts(db, accountId, rows), answeredPrivately(db, accountId, rows)]);
  return new Map(
    rows.map((row) => [
      row.id,
      {
        commentId: row.platformCommentId,
        accountId: row.accountId,
        platform: row.platform as Comment['platform'],
        postId: row.platformPostId,
        parentId: row.parentId,
        from: { id: row.authorId ?? '', name: row.authorName, username: row.authorUsername, phone: null },
        text: row.text,
        isHidden: row.hidden,
        likeCount: row.likeCount,
        replyCount: replies.get(row.platformCommentId) ?? 0,
        permalink: row.permalink,
        capabilities: {
          canHide: row.canHide,
          canDelete: row.canDelete,
          canReply: row.canReply,
          canReplyPrivately: row.canReplyPrivately && !answered.has(row.platformCommentId),
        },
        createdAt: row.writtenAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      },
    ]),
  );
}

export async function presentComment(db: Knex, row: CommentRow): Promise<Comment> {
  return (await presentComments(db, row.accountId, [row])).get(row.id)!;
}
