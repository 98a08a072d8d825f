import type { Knex } from 'knex';
import { newId } from '../../lib/ids.js';
import type { IncomingMessage } from '../../platforms/capabilities/webhooks.js';
import type { PlatformId } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { accountsAddressedByEach } from '../accounts/incoming.js';
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
      conversationId: conversationIds.get(conversationKey(item))!,
      accountId: account.id,
      direction: 'in',
      fromId: message.from,
      text: message.text,
      platformMessageId: message.platformMessageId,
      sentAt: message.sentAt,
      type: message.type ?? 'text',
      attachments: JSON.stringify(
        (message.attachments ?? []).map((attachment, n) => ({
          ...attachment,
          // A file only the account's credentials can fetch is served through the service.
          url: attachment.url ?? (attachment.ref ? `${publicUrl}/accounts/${account.id}/messages/${id}/attachments/${n}` : null),
          mediaId: null,
        })),
      ),
    };
  });
  const inserted = new Set(
    (
      (await trx('messages').insert(rows).onConflict(['accountId', 'platformMessageId']).ignore().returning('id')) as Array<{ id: string }>
    ).map(({ id }) => id),
  );
  if (inserted.size === 0) return;
  const stored = unique.flatMap((item, index) => (inserted.has(rows[index]!.id) ? [{ ...item, row: rows[index]! }] : []));
  const unread = new Map<string, number>();
  for (const { row } of stored) unread.set(row.conversationId, (unread.get(row.conversationId) ?? 0) + 1);
  await trx.raw(
    `UPDATE conversations c SET unread_count = c.unread_count + n.added
     FROM unnest(?::text[], ?::int[]) AS n(id, added) WHERE c.id = n.id`,
    [[...unread.keys()], [...unread.values()]],
  );
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
  const accounts = await accountsAddressedByEach(trx, platform, messages);
  await storeIncomingMessages(
    trx,
    services.config.publicUrl,
    messages.flatMap((message, index) => accounts[index]!.map((account) => ({ account, message }))),
  );
}
