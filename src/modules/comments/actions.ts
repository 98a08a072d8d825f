import type { components } from '../../../generated/api.js';
import { NotFoundError, ValidationFailedError } from '../../lib/errors.js';
import { CommentNotFoundAtPlatform, type Comments, type CommentTarget } from '../../platforms/capabilities/comments.js';
import type { AdapterAccount } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { ownerItself, type Principal } from '../auth/principal.js';
import type { AccountRow } from '../accounts/models.js';
import { CapabilityUnsupportedError } from '../accounts/errors.js';
import { mediaFiles } from '../media/read.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { withComments } from './access.js';
import { ReplyMediaNotFoundError } from './errors.js';
import { presentComment } from './present.js';
import { recordDeleted, recordHidden, storedComment, storePlatformComment } from './store.js';
import type { CommentRow } from './rows.js';

type Comment = components['schemas']['Comment'];

/**
 * The comment writes — reply, hide or show, delete — each through the platform-write ledger: under one key
 * (`ledgerKey`) the platform is asked at most once, and a lost answer is looked up on the platform before anything
 * is sent again. Handlers call them for a principal; automations call `replyToComment` and `hideComment` below for
 * the owner, with a key of their own per action.
 */

export interface ReplyInput {
  target: CommentTarget;
  text: string;
  mediaId?: string | undefined;
}

export async function reply(services: Services, principal: Principal, accountId: string, input: ReplyInput, ledgerKey: string) {
  const what = 'commentId' in input.target ? 'comment' : 'post';
  return withComments(services, principal, accountId, what, 'reply to', async (comments, account, row) => {
    if ([...input.text].length > comments.maxReplyLength) {
      throw new ValidationFailedError([
        { path: 'body/text', code: 'maxLength', message: `${row.platform} replies take at most ${comments.maxReplyLength} characters` },
      ]);
    }
    if (input.mediaId && !comments.repliesTakeImages) throw new CapabilityUnsupportedError(`${row.platform} replies take text only.`);
    let imageUrl: string | null = null;
    if (input.mediaId) {
      const media = (await mediaFiles(services.db, services.config.publicUrl, principal, [input.mediaId])).get(input.mediaId);
      if (!media) throw new ReplyMediaNotFoundError(input.mediaId);
      if (media.kind !== 'image') {
        throw new ValidationFailedError([
          { path: 'body/mediaId', code: 'mediaKind', message: `is a ${media.kind}; replies take an image` },
        ]);
      }
      imageUrl = media.url;
    }
    const written = await writeOnce(services.db, {
      ownerId: row.ownerId,
      accountId: row.id,
      key: ledgerKey,
      kind: 'comment.reply',
      request: { ...input.target, text: input.text, mediaId: input.mediaId ?? null },
      send: () => comments.reply(account, input.target, input.text, imageUrl),
      reconcile: (since) => comments.findReply(account, input.target, input.text, since),
      store: (trx, comment) => storePlatformComment(trx, row, comment),
    });
    return presentComment(services.db, (await storedComment(services.db, row.id, written.result.id))!);
  });
}

/**
 * The comment as the store knows it; one it has not seen (on an older post) is read from the platform and kept
 * first, which also makes sure the id is a comment of the account's (never a post: deleting that would delete the
 * post). A deleted comment is 404, as the platform answers.
 */
async function knownComment(
  services: Services,
  comments: Comments,
  account: AdapterAccount,
  row: AccountRow,
  commentId: string,
): Promise<CommentRow> {
  let stored = await storedComment(services.db, row.id, commentId);
  if (!stored?.known && !stored?.deleted) {
    await storePlatformComment(services.db, row, await comments.read(account, commentId));
    stored = await storedComment(services.db, row.id, commentId);
  }
  if (!stored || stored.deleted) throw new NotFoundError('comment');
  return stored;
}

export async function setHidden(
  services: Services,
  principal: Principal,
  accountId: string,
  commentId: string,
  hidden: boolean,
  ledgerKey: string,
): Promise<Comment> {
  return withComments(services, principal, accountId, 'comment', hidden ? 'hide' : 'show', async (comments, account, row) => {
    await knownComment(services, comments, account, row, commentId);
    await writeOnce(services.db, {
      ownerId: row.ownerId,
      accountId: row.id,
      key: ledgerKey,
      kind: 'comment.hide',
      request: { commentId, hidden },
      send: async () => {
        await comments.hide(account, commentId, hidden);
        return { hidden };
      },
      reconcile: async () => ((await comments.read(account, commentId)).hidden === hidden ? { hidden } : null),
      store: (trx) => recordHidden(trx, row.id, commentId, hidden),
    });
    return presentComment(services.db, (await storedComment(services.db, row.id, commentId))!);
  });
}

/**
 * Deletes the comment at the platform, once: the ledger key is the comment's own, as a comment is deleted once.
 * A deleted comment answers 404, as the platform does.
 */
export async function remove(services: Services, principal: Principal, accountId: string, commentId: string): Promise<void> {
  await withComments(services, principal, accountId, 'comment', 'delete', async (comments, account, row) => {
    await knownComment(services, comments, account, row, commentId);
    try {
      await writeOnce(services.db, {
        ownerId: row.ownerId,
        accountId: row.id,
        key: `comment.delete:${commentId}`,
        kind: 'comment.delete',
        request: { commentId },
        send: async () => {
          await comments.remove(account, commentId);
          return { deleted: true };
        },
        reconcile: async () => {
          try {
            await comments.read(account, commentId);
            return null;
          } catch (error) {
            if (error instanceof CommentNotFoundAtPlatform) return { deleted: true };
            throw error;
          }
        },
        store: (trx) => recordDeleted(trx, row.id, commentId),
      });
    } catch (error) {
      if (error instanceof CommentNotFoundAtPlatform) await recordDeleted(services.db, row.id, commentId);
      throw error;
    }
  });
}

/**
 * For automations: replies to a comment on the owner's account, at most once per `ledgerKey` (a retry with the
 * same key, after a crash or a lost answer, never replies twice). Throws the API's errors (404, 409, 422, 429, 502).
 */
export function replyToComment(
  services: Services,
  ownerId: string,
  accountId: string,
  commentId: string,
  text: string,
  ledgerKey: string,
): Promise<Comment> {
  return reply(services, ownerItself(ownerId), accountId, { target: { commentId }, text }, ledgerKey);
}

/** For automations: hides (or shows) a comment on the owner's account, at most once per `ledgerKey`. */
export function hideComment(
  services: Services,
  ownerId: string,
  accountId: string,
  commentId: string,
  hidden: boolean,
  ledgerKey: string,
): Promise<Comment> {
  return setHidden(services, ownerItself(ownerId), accountId, commentId, hidden, ledgerKey);
}
