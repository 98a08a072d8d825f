/**
 * A comment as read from a platform webhook. The comments area adds this kind to `IncomingEvent`
 * (src/platforms/capabilities/webhooks.ts); until then the automations area declares it here, identically, and
 * the merge swaps this file for an import of that one.
 */
export interface IncomingComment {
  kind: 'comment';
  accountId: string | null;
  platformAccountId: string | null;
  platformPostId: string;
  platformCommentId: string;
  parentCommentId: string | null;
  authorId: string;
  authorName: string | null;
  text: string;
  createdAt: Date;
  verb: 'add' | 'edited' | 'remove' | 'hide' | 'unhide';
}
