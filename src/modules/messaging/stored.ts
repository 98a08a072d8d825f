import type { Knex } from 'knex';
import { newId } from '../../lib/ids.js';
import type { MessageKind, SentPart } from '../../platforms/capabilities/messaging.js';
import type { PublishMedia } from '../../platforms/capabilities/publishing.js';
import type { AccountRow } from '../accounts/models.js';
import { type Attachment, type Message, type MessageRecord, presentMessages } from './messages.js';
import { applyEarlyReceipts, lockSentMessages } from './receipts.js';

/** The account's stored messages with these platform ids, presented in that order. */
export async function storedMessages(db: Knex, account: AccountRow, platformIds: string[]): Promise<Message[]> {
  const stored = (await db('messages').where({ accountId: account.id }).whereIn('platformMessageId', platformIds)) as MessageRecord[];
  return presentMessages(
    db,
    account,
    platformIds.map((id) => stored.find((m) => m.platformMessageId === id)!),
  );
}

function attachmentOf(media: PublishMedia): Attachment {
  const type = media.kind === 'gif' ? 'video' : media.kind;
  return { type, url: media.url, mediaId: media.id, mimeType: media.mimeType, fileName: null, size: media.size };
}

/** How sent messages are stored: the comment privately replied to, their status, whether receipts may come. */
export interface SentStore {
  replyToCommentId?: string | null;
  /** `pending`: queued for the process that holds the account's session, which sends them (qrchat). */
  status?: 'sent' | 'pending';
  /** The platform reports receipts, which may have arrived first (MessageSender.receipts). */
  receipts: boolean;
}

/**
 * The platform's messages, stored in their conversation (created for a first message to a person) with the
 * unread count reset: the account has answered. In the transaction that settles the ledger's write.
 */
export async function storeSent(
  trx: Knex.Transaction,
  account: AccountRow,
  sent: SentPart[],
  { replyToCommentId = null, status = 'sent', receipts }: SentStore,
): Promise<void> {
  const ids = sent.map((part) => part.platformMessageId);
  if (receipts) await lockSentMessages(trx, account.id, ids);
  const now = new Date();
  for (const part of sent) {
    const [conversation] = (await trx('conversations')
      .insert({
        id: newId('conv'),
        ownerId: account.ownerId,
        profileId: account.profileId,
        accountId: account.id,
        platformConversationId: part.platformConversationId,
        participant: JSON.stringify({ id: part.platformConversationId, name: null, username: null, phone: null }),
        lastMessageAt: now,
      })
      .onConflict(['accountId', 'platformConversationId'])
      .merge({
        lastMessageAt: trx.raw('greatest(conversations.last_message_at, excluded.last_message_at)'),
        unreadCount: 0,
        updatedAt: trx.fn.now(),
      })
      .returning('id')) as Array<{ id: string }>;
    await trx('messages')
      .insert({
        id: newId('msg'),
        conversationId: conversation!.id,
        accountId: account.id,
        direction: 'out',
        fromId: account.platformAccountId ?? account.id,
        text: part.text ?? '',
        platformMessageId: part.platformMessageId,
        sentAt: now,
        type: part.kind satisfies MessageKind,
        status,
        attachments: JSON.stringify(part.media ? [attachmentOf(part.media)] : []),
        statusHistory: JSON.stringify(status === 'sent' ? [{ status: 'sent', at: now.toISOString() }] : []),
        replyToCommentId,
      })
      .onConflict(['accountId', 'platformMessageId'])
      .ignore();
  }
  if (receipts) await applyEarlyReceipts(trx, account.id, ids);
}
