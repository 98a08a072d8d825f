import type { Knex } from 'knex';
import { newId } from '../../lib/ids.js';
import type { IncomingMessage } from '../../platforms/capabilities/webhooks.js';
import type { PlatformId } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { accountsAddressedInBatch } from '../accounts/incoming.js';
import type { AccountRow } from '../accounts/models.js';
import { emitEvents, type NewEvent } from '../events/emit.js';
import { leaveToLast } from '../webhooks/last-writes.js';
import { conversationsAt } from './api.js';
import { conversationLockOrder, inLockOrder } from './stored.js';

/** A message a person sent, and the connected account it was sent to. */
export interface AddressedMessage {
  account: AccountRow;
  message: IncomingMessage;
}

/** A conversation's key among those of the stored messages, which orders their locks. */
const conversationKey = ({ account, message }: AddressedMessage) => conversationLockOrder(account.id, message.platformConversationId);

/** A conversation's newest message among those stored together, and when it was sent. */
type Latest = AddressedMessage & { lastMessageAt: Date };

/**
 * Stores messages people sent to connected accounts in their conversations and emits `message.received` for each,
 * in the caller's transaction, in a few statements whatever their number. The platform's message id is unique per
 * account, so a redelivered webhook adds nothing. Media messages keep their files as attachments (`text` is the
 * caption or ""); `message.received` keeps exactly the five members of the specification. The conversations'
 * write (their unread counts, latest message and participant) locks rows a reply being stored waits for: given
 * `leave`, it is handed over for the caller to run last in its transaction, else it is run at once.
 */
export async function storeIncomingMessages(
  trx: Knex.Transaction,
  publicUrl: string,
  addressed: AddressedMessage[],
  leave?: (write: () => Promise<void>) => void,
): Promise<void> {
  // A message delivered twice in one batch is stored once.
  const unique = [...new Map(addressed.map((item) => [`${item.account.id}\u0000${item.message.platformMessageId}`, item])).values()];
  if (unique.length === 0) return;
  const latest = new Map<string, Latest>();
  for (const item of unique) {
    const key = conversationKey(item);
    const before = latest.get(key)?.lastMessageAt;
    latest.set(key, { ...item, lastMessageAt: before && before > item.message.sentAt ? before : item.message.sentAt });
  }
  const conversationIds = await conversationIdsOf(trx, inLockOrder(latest));
  const rows = unique.map((item) => {
    const { account, message } = item;
    const id = newId('msg');
    return {
      id,
      conversation_id: conversationIds.get(conversationKey(item))!,
      account_id: account.id,
      from_id: message.from,
      text: message.text,
      platform_message_id: message.platformMessageId,
      sent_at: message.sentAt,
      type: message.type ?? 'text',
      attachments: (message.attachments ?? []).map((attachment, n) => ({
        ...attachment,
        // A file only the account's credentials can fetch is served through the service.
        url: attachment.url ?? (attachment.ref ? `${publicUrl}/accounts/${account.id}/messages/${id}/attachments/${n}` : null),
        mediaId: null,
      })),
    };
  });
  const { rows: insertedRows } = (await trx.raw(
    `INSERT INTO messages (id, conversation_id, account_id, direction, from_id, text, platform_message_id, sent_at, type, attachments)
     SELECT m.id, m.conversation_id, m.account_id, 'in', m.from_id, m.text, m.platform_message_id, m.sent_at, m.type, m.attachments
     FROM jsonb_to_recordset(?::jsonb) AS m(id text, conversation_id text, account_id text, from_id text, text text,
       platform_message_id text, sent_at timestamptz, type text, attachments jsonb)
     ON CONFLICT (account_id, platform_message_id) DO NOTHING
     RETURNING id`,
    [JSON.stringify(rows)],
  )) as { rows: Array<{ id: string }> };
  const inserted = new Set(insertedRows.map(({ id }) => id));
  if (inserted.size === 0) return;
  const stored = unique.flatMap((item, index) => (inserted.has(rows[index]!.id) ? [{ ...item, row: rows[index]! }] : []));
  await emitEvents(
    trx,
    stored.map(({ account, message, row }): NewEvent<'message.received'> => ({
      ownerId: account.ownerId,
      profileId: account.profileId,
      name: 'message.received',
      data: { accountId: account.id, from: message.from, text: message.text, msgId: row.id, platform: account.platform as PlatformId },
    })),
  );
  const added = new Map<string, number>();
  for (const item of stored) added.set(conversationKey(item), (added.get(conversationKey(item)) ?? 0) + 1);
  const write = () => touchConversations(trx, inLockOrder(latest), added);
  if (leave) leave(write);
  else await write();
}

/** The conversation row of each message's conversation, as inserted or found (every column but the counts). */
function conversationRows(conversations: Latest[]) {
  return conversations.map(({ account, message, lastMessageAt }) => ({
    id: newId('conv'),
    owner_id: account.ownerId,
    profile_id: account.profileId,
    account_id: account.id,
    platform_conversation_id: message.platformConversationId,
    participant: { id: message.from, name: message.fromName, username: message.fromUsername ?? null, phone: message.fromPhone ?? null },
    last_message_at: lastMessageAt,
  }));
}

const CONVERSATION_COLUMNS = `c(id text, owner_id text, profile_id text, account_id text, platform_conversation_id text,
  participant jsonb, last_message_at timestamptz, unread_count int)`;

/**
 * The ids of the messages' conversations (in lock order), by key: those missing are created, as their latest
 * message names the person; those there are only read, and locked by nothing. One created at the same moment by
 * another transaction is neither created nor seen by the statement: it is read again once that one has committed.
 */
async function conversationIdsOf(trx: Knex.Transaction, conversations: Latest[]): Promise<Map<string, string>> {
  const { rows } = (await trx.raw(
    `WITH c AS (SELECT * FROM jsonb_to_recordset(?::jsonb) AS ${CONVERSATION_COLUMNS}), created AS (
       INSERT INTO conversations (id, owner_id, profile_id, account_id, platform_conversation_id, participant, last_message_at)
       SELECT id, owner_id, profile_id, account_id, platform_conversation_id, participant, last_message_at FROM c
       ON CONFLICT (account_id, platform_conversation_id) DO NOTHING
       RETURNING id, account_id, platform_conversation_id
     )
     SELECT id, account_id AS "accountId", platform_conversation_id AS "platformConversationId" FROM created
     UNION ALL
     SELECT conversations.id, account_id, platform_conversation_id FROM conversations JOIN c USING (account_id, platform_conversation_id)`,
    [JSON.stringify(conversationRows(conversations))],
  )) as { rows: Array<{ id: string; accountId: string; platformConversationId: string }> };
  const ids = new Map(rows.map((row) => [conversationLockOrder(row.accountId, row.platformConversationId), row.id]));
  const missing = conversations.filter((item) => !ids.has(conversationKey(item)));
  const found =
    missing.length === 0
      ? []
      : await conversationsAt(
          trx,
          missing.map(({ account, message }) => [account.id, message.platformConversationId]),
        );
  for (const row of found) ids.set(conversationLockOrder(row.accountId, row.platformConversationId), row.id);
  return ids;
}

/**
 * Brings the conversations up to date with the messages stored (locked in the order given, so that two
 * transactions touching the same conversations cannot deadlock): the participant as the latest message names
 * them, the time of the latest message, the unread count raised by the messages `added`. Every one of them is
 * there already (`conversationIdsOf`): the insert only orders the locks, as an update cannot.
 */
async function touchConversations(trx: Knex.Transaction, conversations: Latest[], added: Map<string, number>): Promise<void> {
  const touched = conversations.filter((item) => added.has(conversationKey(item)));
  await trx.raw(
    `INSERT INTO conversations (id, owner_id, profile_id, account_id, platform_conversation_id, participant, last_message_at, unread_count)
     SELECT * FROM jsonb_to_recordset(?::jsonb) AS ${CONVERSATION_COLUMNS}
     ON CONFLICT (account_id, platform_conversation_id) DO UPDATE SET
       last_message_at = greatest(conversations.last_message_at, excluded.last_message_at), participant = excluded.participant,
       unread_count = conversations.unread_count + excluded.unread_count, updated_at = now()`,
    [
      JSON.stringify(
        conversationRows(touched).map((row, index) => ({ ...row, unread_count: added.get(conversationKey(touched[index]!))! })),
      ),
    ],
  );
}

/** Messages people sent: each stored for every connected account it is addressed to. */
export async function receiveMessages(
  services: Services,
  platform: string,
  messages: IncomingMessage[],
  trx: Knex.Transaction,
): Promise<void> {
  const accounts = await accountsAddressedInBatch(trx, platform, messages);
  await storeIncomingMessages(
    trx,
    services.config.publicUrl,
    messages.flatMap((message, index) => accounts[index]!.map((account) => ({ account, message }))),
    (write) => leaveToLast(trx, write),
  );
}
