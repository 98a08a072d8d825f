// The rows of the comments area's tables, as Knex reads them (columns in camelCase).

/** A comment as the `comments` table keeps it. */
export interface CommentRow {
  id: string;
  accountId: string;
  platform: string;
  platformCommentId: string;
  platformPostId: string;
  postId: string | null;
  parentId: string | null;
  authorId: string | null;
  authorName: string | null;
  authorUsername: string | null;
  text: string;
  hidden: boolean;
  deleted: boolean;
  known: boolean;
  likeCount: number | null;
  permalink: string | null;
  canHide: boolean;
  canDelete: boolean;
  canReply: boolean;
  canReplyPrivately: boolean;
  writtenAt: Date;
  updatedAt: Date;
}
