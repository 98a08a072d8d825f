import type { Knex } from 'knex';
import { incrementBase32, ulid } from 'ulid';
import type { CommentActions, PlatformComment } from '../../platforms/capabilities/comments.js';
import type { IncomingComment } from '../../platforms/capabilities/webhooks.js';
import type { AccountRow } from '../accounts/models.js';
import { ourPostId } from '../publishing/api.js';
import type { CommentRow } from './rows.js';

let lastRowId: { time: number; ulid: string } | null = null;

/**
 * The row id: a ULID of the comment's own time (prefix `cmt`), so that listing by id, as the keyset pages do, lists
 * the comments in the order they were written, whatever order they reached us in. Platforms give whole seconds:
 * comments of the same second are ordered as they are stored (the next id of that second is the one after).
 */
function commentRowId(writtenAt: Date): string {
  const time = writtenAt.getTime();
  const next = lastRowId?.time === time ? incrementBase32(lastRowId.ulid) : ulid(time);
  lastRowId = { time, ulid: next };
  return `cmt_${next.toLowerCase()}`;
}

function capabilityColumns(can: CommentActions) {
  return { canHide: can.hide, canDelete: can.delete, canReply: can.reply, canReplyPrivately: can.replyPrivately };
}

function accountColumns(account: AccountRow) {
  return { ownerId: account.ownerId, profileId: account.profileId, accountId: account.id, platform: account.platform };
}

/**
 * A comment as the platform shows it now (a first read, a reply we wrote): its text, state and capabilities, as of
 * now. A removal seen before stays: a deleted comment never comes back.
 */
export async function storePlatformComment(db: Knex, account: AccountRow, comment: PlatformComment): Promise<void> {
  const writtenAt = new Date(comment.createdAt);
  const now = new Date();
  const known = {
    platformPostId: comment.postId,
    parentId: comment.parentId,
    authorId: comment.from?.id ?? null,
    authorName: comment.from?.name ?? null,
    authorUsername: comment.from?.username ?? null,
    text: comment.text,
    textAt: now,
    hidden: comment.hidden,
    hiddenAt: now,
    known: true,
    likeCount: comment.likeCount,
    permalink: comment.permalink,
    writtenAt,
    ...capabilityColumns(comment.can),
  };
  await db('comments')
    .insert({
      id: commentRowId(writtenAt),
      ...accountColumns(account),
      platformCommentId: comment.id,
      postId: ourPostId(db, account.id, comment.postId),
      ...known,
    })
    .onConflict(['accountId', 'platformCommentId'])
    .merge({ ...known, id: db.raw('CASE WHEN comments.known THEN comments.id ELSE excluded.id END'), updatedAt: db.fn.now() });
}

/**
 * One change a webhook reported, applied in the platform's order: the text and the hidden state each move only to
 * a later change, the comment's own data fills in whenever it comes, and a removal is final. A change to a comment
 * not seen yet keeps a placeholder (not listed) that the comment's own webhook completes.
 */
export async function applyCommentChange(db: Knex, account: AccountRow, event: IncomingComment): Promise<void> {
  const { at } = event;
  const writtenAt = event.createdAt ?? at;
  const carriesComment = event.from !== null && event.createdAt !== null && (event.change === 'added' || event.change === 'edited');
  const carriesText = event.text !== null && (event.change === 'added' || event.change === 'edited');
  const carriesHidden = event.change === 'hidden' || event.change === 'unhidden';
  const hidden = event.change === 'hidden';

  const insert: Record<string, unknown> = {
    id: commentRowId(writtenAt),
    ...accountColumns(account),
    platformCommentId: event.platformCommentId,
    platformPostId: event.platformPostId,
    postId: ourPostId(db, account.id, event.platformPostId),
    parentId: event.parentId,
    authorId: event.from?.id ?? null,
    authorName: event.from?.name ?? null,
    authorUsername: event.from?.username ?? null,
    text: carriesText ? event.text : '',
    textAt: carriesText ? at : null,
    hidden: carriesHidden ? hidden : false,
    hiddenAt: carriesHidden ? at : null,
    deleted: event.change === 'removed',
    known: carriesComment,
    writtenAt,
    ...(event.can ? capabilityColumns(event.can) : {}),
  };
  const merge: Record<string, unknown> = { updatedAt: db.fn.now() };
  if (carriesComment) {
    Object.assign(merge, {
      id: db.raw('CASE WHEN comments.known THEN comments.id ELSE excluded.id END'),
      known: true,
      writtenAt,
      parentId: event.parentId,
      authorId: event.from!.id,
      authorName: event.from!.name,
      authorUsername: event.from!.username,
      ...(event.can ? capabilityColumns(event.can) : {}),
    });
  }
  // Platforms' times are often whole seconds: at a tie the later arrival wins, except the comment's first text
  // over an edit of the same second.
  const textOrder = event.change === 'added' ? '<' : '<=';
  if (carriesText) {
    merge.text = db.raw(
      `CASE WHEN comments.text_at IS NULL OR comments.text_at ${textOrder} excluded.text_at THEN excluded.text ELSE comments.text END`,
    );
    merge.textAt = db.raw('greatest(comments.text_at, excluded.text_at)');
  }
  if (carriesHidden) {
    merge.hidden = db.raw(
      'CASE WHEN comments.hidden_at IS NULL OR comments.hidden_at <= excluded.hidden_at THEN excluded.hidden ELSE comments.hidden END',
    );
    merge.hiddenAt = db.raw('greatest(comments.hidden_at, excluded.hidden_at)');
  }
  if (event.change === 'removed') merge.deleted = true;
  await db('comments').insert(insert).onConflict(['accountId', 'platformCommentId']).merge(merge);
  // A removed comment's replies go with it, and the platform need not say so for each.
  if (event.change === 'removed') {
    await db('comments')
      .where({ accountId: account.id, parentId: event.platformCommentId })
      .update({ deleted: true, updatedAt: db.fn.now() });
  }
}

/** The stored comment of the account with this platform id, placeholders and deleted ones included. */
export async function storedComment(db: Knex, accountId: string, platformCommentId: string): Promise<CommentRow | undefined> {
  return db('comments').where({ accountId, platformCommentId }).first();
}

/** The account hid or showed the comment, now: the state of this moment replaces any earlier one. */
export async function recordHidden(db: Knex, accountId: string, platformCommentId: string, hidden: boolean): Promise<void> {
  await db('comments').where({ accountId, platformCommentId }).update({ hidden, hiddenAt: db.fn.now(), updatedAt: db.fn.now() });
}

/** The comment is gone at the platform (deleted by the account, or found gone), and its replies with it. */
export async function recordDeleted(db: Knex, accountId: string, platformCommentId: string): Promise<void> {
  await db('comments')
    .where({ accountId })
    .where((q) => q.where({ platformCommentId }).orWhere({ parentId: platformCommentId }))
    .update({ deleted: true, updatedAt: db.fn.now() });
}
