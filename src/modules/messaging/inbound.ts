import type { Knex } from 'knex';
import { newId } from '../../lib/ids.js';
import type { IncomingMessage } from '../../platforms/capabilities/webhooks.js';
import type { PlatformId } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { accountsAddressedBy } from '../accounts/incoming.js';
import type { AccountRow } from '../accounts/models.js';
import { emitEvent } from '../events/emit.js';

/**
 * Stores a message a person sent to a connected account in its conversation and emits `message.received`,
 * in one transaction. The platform's message id is unique per account, so a redelivered webhook adds nothing.
 * Media messages keep their files as attachments (`text` is the caption or ""); `message.received` keeps exactly
 * the five members of the specification.
 */
export async function storeIncomingMessage(db: Knex, publicUrl: string, account: AccountRow, message: IncomingMessage): Promise<void> {
  await db.transaction(async (trx) => {
    const participant = {
      id: message.from,
      name: message.fromName,
      username: message.fromUsername ?? null,
      phone: message.fromPhone ?? null,
    };
    const [conversation] = (await trx('conversations')
      .insert({
        id: newId('conv'),
        ownerId: account.ownerId,
        profileId: account.profileId,
        accountId: account.id,
        platformConversationId: message.platformConversationId,
        participant: JSON.stringify(participant),
        lastMessageAt: message.sentAt,
      })
      .onConflict(['accountId', 'platformConversationId'])
      .merge({
        lastMessageAt: trx.raw('greatest(conversations.last_message_at, excluded.last_message_at)'),
        participant: JSON.stringify(participant),
        updatedAt: trx.fn.now(),
      })
      .returning('id')) as Array<{ id: string }>;
    const id = newId('msg');
    const [inserted] = (await trx('messages')
      .insert({
        id,
        conversationId: conversation!.id,
        accountId: account.id,
        direction: 'in',
        fromId: message.from,
        text: message.text,
        platformMessageId: message.platformMessageId,
        sentAt: message.sentAt,
        type: message.type ?? 'text',
        attachments: JSON.stringify(
          (message.attachments ?? []).map((attachment, index) => ({
            ...attachment,
            // A file only the account's credentials can fetch is served through the service.
            url: attachment.url ?? (attachment.ref ? `${publicUrl}/accounts/${account.id}/messages/${id}/attachments/${index}` : null),
            mediaId: null,
          })),
        ),
      })
      .onConflict(['accountId', 'platformMessageId'])
      .ignore()
      .returning('id')) as Array<{ id: string }>;
    if (!inserted) return;
    await trx('conversations').where({ id: conversation!.id }).increment('unreadCount', 1);
    await emitEvent(trx, {
      ownerId: account.ownerId,
      profileId: account.profileId,
      name: 'message.received',
      data: { accountId: account.id, from: message.from, text: message.text, msgId: inserted.id, platform: account.platform as PlatformId },
    });
  });
}

/** A message a person sent: stored for every connected account it is addressed to. */
export async function receiveMessage(services: Services, platform: string, message: IncomingMessage): Promise<void> {
  for (const account of await accountsAddressedBy(services.db, platform, message))
    await storeIncomingMessage(services.db, services.config.publicUrl, account, message);
}
