import type { Knex } from 'knex';
import { newId } from '../../lib/ids.js';
import type { MessageKind, SentPart } from '../../platforms/capabilities/messaging.js';
import type { PublishMedia } from '../../platforms/capabilities/publishing.js';
import type { AccountRow } from '../accounts/models.js';
import { type PlatformWrite, SharedStore } from '../platform-writes/ledger.js';
import type { Settlement } from '../platform-writes/records.js';
import { type Attachment, type Message, presentMessages } from './messages.js';
import type { MessageRecord } from './rows.js';
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

/**
 * The order in which transactions that touch several conversations lock them (by account, then the platform's
 * id): taken in one order, two such transactions cannot deadlock.
 */
export function conversationLockOrder(accountId: string, platformConversationId: string): string {
  return `${accountId}\u0000${platformConversationId}`;
}

/** The conversations keyed by `conversationLockOrder`, in that order. */
export function inLockOrder<T>(byLockOrder: Map<string, T>): T[] {
  return [...byLockOrder].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, conversation]) => conversation);
}

/** How sent messages are stored: the comment privately replied to, their status, whether receipts may come. */
export interface SentStore {
  replyToCommentId?: string | null;
  /** `pending`: queued for the process that holds the account's session, which sends them (qrchat). */
  status?: 'sent' | 'pending';
  /** The platform reports receipts, which may have arrived first (MessageSender.receipts). */
  receipts: boolean;
}

/** The messages one platform write sent, from `account`. */
export interface SentMessages {
  account: AccountRow;
  sent: SentPart[];
  how: SentStore;
}

/** `storeSentMessages` for one write. */
export function storeSent(trx: Knex.Transaction, account: AccountRow, sent: SentPart[], how: SentStore): Promise<void> {
  return storeSentMessages(trx, [{ account, sent, how }]);
}

const SENT_MESSAGES = new SharedStore(storeSentMessages);

/** How a platform write of messages keeps what it sent: stored together with the other sends of the moment. */
export function keptAsSent(account: AccountRow, how: SentStore): Pick<PlatformWrite<SentPart[]>, 'store' | 'together'> {
  return SENT_MESSAGES.keeping((sent: SentPart[]) => ({ account, sent, how }));
}

/**
 * The platforms' messages, stored in their conversations (created for a first message to a person) with the
 * unread count reset: the account has answered. In one statement whatever their number (a worker's replies are
 * stored together), which carries the ledger's `settlement` of the writes that sent them; where the platform
 * reports receipts, in a transaction with their statements. Conversations are locked in `conversationLockOrder`,
 * as the intake locks them.
 */
export async function storeSentMessages(db: Knex, writes: SentMessages[], settlement?: Settlement): Promise<void> {
  const receipted = platformIdsByAccount(writes.filter(({ how }) => how.receipts));
  if (receipted.length === 0) return insertSent(db, writes, settlement);
  // Receipts take statements of their own around the insert: all of it in one transaction.
  const withReceipts = async (trx: Knex.Transaction) => {
    for (const { account, ids } of receipted) await lockSentMessages(trx, account.id, ids);
    await insertSent(trx, writes, settlement);
    for (const { account, ids } of receipted) await applyEarlyReceipts(trx, account.id, ids);
  };
  await (db.isTransaction ? withReceipts(db as Knex.Transaction) : db.transaction(withReceipts));
}

/** The statement of `storeSentMessages`. */
async function insertSent(db: Knex, writes: SentMessages[], settlement?: Settlement): Promise<void> {
  const now = new Date();
  const conversations = new Map<string, { account: AccountRow; platformConversationId: string }>();
  for (const { account, sent } of writes)
    for (const { platformConversationId } of sent)
      conversations.set(conversationLockOrder(account.id, platformConversationId), { account, platformConversationId });
  const messages = writes.flatMap(({ account, sent, how: { replyToCommentId = null, status = 'sent' } }) =>
    sent.map((part) => ({
      id: newId('msg'),
      account_id: account.id,
      platform_conversation_id: part.platformConversationId,
      from_id: account.platformAccountId ?? account.id,
      text: part.text ?? '',
      platform_message_id: part.platformMessageId,
      type: part.kind satisfies MessageKind,
      status,
      attachments: part.media ? [attachmentOf(part.media)] : [],
      status_history: status === 'sent' ? [{ status: 'sent', at: now.toISOString() }] : [],
      reply_to_comment_id: replyToCommentId,
    })),
  );
  await db.raw(
    `WITH ${settlement ? `${settlement.cte}, ` : ''}conversation AS (
       INSERT INTO conversations (id, owner_id, profile_id, account_id, platform_conversation_id, participant, last_message_at)
       SELECT c.id, c.owner_id, c.profile_id, c.account_id, c.platform_conversation_id, c.participant, ?
       FROM jsonb_to_recordset(?::jsonb)
         AS c(id text, owner_id text, profile_id text, account_id text, platform_conversation_id text, participant jsonb)
       ON CONFLICT (account_id, platform_conversation_id) DO UPDATE SET
         last_message_at = greatest(conversations.last_message_at, excluded.last_message_at), unread_count = 0, updated_at = now()
       RETURNING id, account_id, platform_conversation_id
     )
     INSERT INTO messages (id, conversation_id, account_id, direction, from_id, text, platform_message_id, sent_at, type, status,
       attachments, status_history, reply_to_comment_id)
     SELECT m.id, conversation.id, m.account_id, 'out', m.from_id, m.text, m.platform_message_id, ?, m.type, m.status,
       m.attachments, m.status_history, m.reply_to_comment_id
     FROM jsonb_to_recordset(?::jsonb) AS m(id text, account_id text, platform_conversation_id text, from_id text, text text,
       platform_message_id text, type text, status text, attachments jsonb, status_history jsonb, reply_to_comment_id text)
     JOIN conversation USING (account_id, platform_conversation_id)
     ON CONFLICT (account_id, platform_message_id) DO NOTHING`,
    [
      ...(settlement?.bindings ?? []),
      now,
      JSON.stringify(
        inLockOrder(conversations).map(({ account, platformConversationId }) => ({
          id: newId('conv'),
          owner_id: account.ownerId,
          profile_id: account.profileId,
          account_id: account.id,
          platform_conversation_id: platformConversationId,
          participant: { id: platformConversationId, name: null, username: null, phone: null },
        })),
      ),
      now,
      JSON.stringify(messages),
    ],
  );
}

/** The platform ids of the messages written, by account. */
function platformIdsByAccount(writes: SentMessages[]): Array<{ account: AccountRow; ids: string[] }> {
  const byAccount = new Map<string, { account: AccountRow; ids: string[] }>();
  for (const { account, sent } of writes) {
    const entry = byAccount.get(account.id) ?? { account, ids: [] };
    entry.ids.push(...sent.map((part) => part.platformMessageId));
    byAccount.set(account.id, entry);
  }
  return [...byAccount.values()];
}
