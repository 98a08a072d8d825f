import type { Knex } from 'knex';
import { newId } from '../../lib/ids.js';
import type { IncomingMessage } from '../../platforms/capabilities/webhooks.js';
import type { PlatformId } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { accountsAddressedInBatch } from '../accounts/incoming.js';
import type { AccountRow } from '../accounts/models.js';
import { emitEvents, type NewEvent } from '../events/emit.js';
import { conversationLockOrder, inLockOrder } from './stored.js';

/** A message a person sent, and the connected account it was sent to. */
export interface AddressedMessage {
  account: AccountRow;
  message: IncomingMessage;
}

/** A conversation's key among those of the stored messages, which orders their locks. */
const conversationKey = ({ account, message }: AddressedMessage) => conversationLockOrder(account.id, message.platformConversationId);

/**
 * Stores messages people sent to connected accounts in their conversations and emits `message.received` for each,
 * in the caller's transaction, in a few statements whatever their number. The platform's message id is unique per
 * account, so a redelivered webhook adds nothing. Media messages keep their files as attachments (`text` is the
 * caption or ""); `message.received` keeps exactly the five members of the specification.
 */
export async function storeIncomingMessages(trx: Knex.Transaction, publicUrl: string, addressed: AddressedMessage[]): Promise<void> {
  // A message delivered twice in one batch is stored once.
  const unique = [...new Map(addressed.map((item) => [`${item.account.id}\u0000${item.message.platformMessageId}`, item])).values()];
  if (unique.length === 0) return;
  const conversationIds = await upsertConversations(trx, unique);
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
  // The messages not stored before, and their conversations' unread counts raised by as many, in one statement.
  const { rows: insertedRows } = (await trx.raw(
    `WITH inserted AS (
       INSERT INTO messages (id, conversation_id, account_id, direction, from_id, text, platform_message_id, sent_at, type, attachments)
       SELECT m.id, m.conversation_id, m.account_id, 'in', m.from_id, m.text, m.platform_message_id, m.sent_at, m.type, m.attachments
       FROM jsonb_to_recordset(?::jsonb) AS m(id text, conversation_id text, account_id text, from_id text, text text,
         platform_message_id text, sent_at timestamptz, type text, attachments jsonb)
       ON CONFLICT (account_id, platform_message_id) DO NOTHING
       RETURNING id, conversation_id
     ), counted AS (
       UPDATE conversations c SET unread_count = c.unread_count + n.added
       FROM (SELECT conversation_id, count(*)::int AS added FROM inserted GROUP BY conversation_id) AS n
       WHERE c.id = n.conversation_id
     )
     SELECT id FROM inserted`,
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
}

/**
 * Creates or brings up to date the conversations of the messages, one row each (in a fixed order, so that two
 * transactions touching the same conversations cannot deadlock): the participant as the latest message names
 * them, the time of the latest message. Answers each conversation's id by its key.
 */
async function upsertConversations(trx: Knex.Transaction, messages: AddressedMessage[]): Promise<Map<string, string>> {
  const latest = new Map<string, AddressedMessage & { lastMessageAt: Date }>();
  for (const item of messages) {
    const key = conversationKey(item);
    const before = latest.get(key)?.lastMessageAt;
    latest.set(key, { ...item, lastMessageAt: before && before > item.message.sentAt ? before : item.message.sentAt });
  }
  const ordered = inLockOrder(latest);
  const rows = (await trx('conversations')
    .insert(
      ordered.map(({ account, message, lastMessageAt }) => ({
        id: newId('conv'),
        ownerId: account.ownerId,
        profileId: account.profileId,
        accountId: account.id,
        platformConversationId: message.platformConversationId,
        participant: JSON.stringify({
          id: message.from,
          name: message.fromName,
          username: message.fromUsername ?? null,
          phone: message.fromPhone ?? null,
        }),
        lastMessageAt,
      })),
    )
    .onConflict(['accountId', 'platformConversationId'])
    .merge({
      lastMessageAt: trx.raw('greatest(conversations.last_message_at, excluded.last_message_at)'),
      participant: trx.raw('excluded.participant'),
      updatedAt: trx.fn.now(),
    })
    .returning(['id', 'accountId', 'platformConversationId'])) as Array<{ id: string; accountId: string; platformConversationId: string }>;
  return new Map(rows.map((row) => [`${row.accountId}\u0000${row.platformConversationId}`, row.id]));
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
  );
}
