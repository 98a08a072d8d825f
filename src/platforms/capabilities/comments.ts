import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';

/** What the account may do to a comment, as the platform says. */
export interface CommentActions {
  hide: boolean;
  delete: boolean;
  reply: boolean;
  replyPrivately: boolean;
}

/**
 * A comment as a platform shows it. Plain JSON (times as ISO strings): a reply's comment is kept by the
 * platform-write ledger as the write's result.
 */
export interface PlatformComment {
  id: string;
  /** The platform's id of the post commented on. */
  postId: string;
  /** The comment it answers; null for a comment on the post itself. */
  parentId: string | null;
  from: { id: string; name: string | null; username: string | null } | null;
  text: string;
  hidden: boolean;
  likeCount: number | null;
  permalink: string | null;
  createdAt: string;
  can: CommentActions;
}

/** A reply's target: a comment, or a post of the account. */
export type CommentTarget = { commentId: string } | { postId: string };

/** The platform has no such comment or post (any more), or shows it to the account no more. */
export class CommentNotFoundAtPlatform extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** The platform refuses the action on this comment (hiding the page's own comment, deleting another's reply). */
export class CommentActionRefused extends PlatformError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** Comments on the account's posts: read them, reply, hide and show them, delete them. */
export interface Comments {
  /** The longest reply the platform takes, in characters. */
  maxReplyLength: number;
  /** Whether a reply may carry an image. */
  repliesTakeImages: boolean;
  /** The permissions replying to and hiding the account's comments need, where the platform asks for any. */
  readonly writeScopes: readonly string[];
  /** The ids of the account's most recent posts, newest first, at most `limit`: those whose comments a first list reads. */
  recentPostIds(account: AdapterAccount, limit: number): Promise<string[]>;
  /** One page of a post's comments, replies included, newest first (`cursor`: the previous page's `next`). */
  list(account: AdapterAccount, postId: string, cursor: string | null): Promise<{ comments: PlatformComment[]; next: string | null }>;
  /** One comment as it is now; CommentNotFoundAtPlatform when it is gone. */
  read(account: AdapterAccount, commentId: string): Promise<PlatformComment>;
  /** Writes a reply (or a comment on a post) as the account, with an image fetched from `imageUrl`; the new comment. */
  reply(account: AdapterAccount, target: CommentTarget, text: string, imageUrl: string | null): Promise<PlatformComment>;
  /** After a lost answer: the account's reply with this text written at `since` or later, or null when there is none. */
  findReply(account: AdapterAccount, target: CommentTarget, text: string, since: Date): Promise<PlatformComment | null>;
  hide(account: AdapterAccount, commentId: string, hidden: boolean): Promise<void>;
  remove(account: AdapterAccount, commentId: string): Promise<void>;
}
