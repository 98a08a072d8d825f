import type { Knex } from 'knex';
import { NotFoundError, NotImplementedError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { MessageKind, OutgoingMessage, SentPart } from '../../platforms/capabilities/messaging.js';
import type { PublishMedia } from '../../platforms/capabilities/publishing.js';
import type { Services } from '../../services.js';
import { ownerItself } from '../auth/principal.js';
import type { AccountRow } from '../accounts/models.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import { accountById } from '../accounts/read.js';
import { mediaFiles } from '../media/read.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { MediaNotFoundError, MessageInvalidError, refusalProblem } from './errors.js';
import { applyEarlyReceipts, lockSentMessages } from './receipts.js';
import { assertReplyWindowOpen } from './window.js';
import { type Attachment, type Message, type MessageRecord, presentMessages } from './messages.js';

/** Who a message goes to: one of the account's conversations, a person by the platform's id, a comment's author. */
export type Recipient = { conversationId: string } | { userId: string } | { commentId: string };

/** The platforms with direct messages; one whose adapter cannot send them yet answers 501, not 422. */
const MESSAGING_PLATFORMS = new Set(['botchat', 'social_network', 'chatapp-cloud', 'qrchat']);

export interface MessageToSend {
  recipient: Recipient;
  text?: string | null;
  mediaIds?: string[];
  /** A Messenger message tag (outside the 24-hour window). */
  messagingTag?: string;
}

/**
 * Sends a message from one of the owner's accounts and answers the stored messages, in sending order. Needs no
 * HTTP caller: an automation sends through it too. Each platform call is one write of the ledger under
 * `<ledgerKey>:<part>`, so the same key asked again answers the parts sent already and sends only the others,
 * and a lost answer is never sent again. Each platform message counts once in the `messages` usage.
 */
export async function sendMessage(
  services: Services,
  ownerId: string,
  accountId: string,
  message: MessageToSend,
  ledgerKey: string,
): Promise<Message[]> {
  const owner = ownerItself(ownerId);
  const found = await accountById(services.db, accountId);
  const platform = found?.ownerId === ownerId ? found.platform : undefined;
  const sender = platform ? services.platforms.get(platform)?.messaging : undefined;
  if (platform && MESSAGING_PLATFORMS.has(platform) && !sender) {
    throw new NotImplementedError(`Sending messages from ${platform} accounts`);
  }
  return withConnectedAccount(
    services,
    owner,
    accountId,
    'messaging',
    async (adapter, account, row) => {
      const outgoing = await outgoingMessage(services, row, message);
      const violations = adapter.messaging.validate(outgoing);
      if (violations.length > 0) throw new MessageInvalidError(violations);
      const window = adapter.messaging.replyWindowHours;
      if (window !== undefined && outgoing.recipient.kind === 'user')
        await assertReplyWindowOpen(services.db, row, outgoing.recipient.id, window);
      const platformIds: string[] = [];
      for (const [index, part] of adapter.messaging.parts(outgoing).entries()) {
        const written = await writeOnce<SentPart[]>(services.db, {
          ownerId,
          accountId: row.id,
          key: `${ledgerKey}:${index}`,
          kind: 'message.send',
          request: { recipient: outgoing.recipient, tag: outgoing.tag ?? null, text: part.text, mediaIds: part.media.map((m) => m.id) },
          send: () => adapter.messaging.send(account, outgoing, part),
          store: (trx, sent) => storeSent(trx, row, sent, outgoing.recipient.kind === 'comment' ? outgoing.recipient.id : null),
        });
        if (written.how !== 'replayed') services.usage.record(ownerId, row.profileId, 'messages', written.result.length);
        platformIds.push(...written.result.map((sent) => sent.platformMessageId));
      }
      return storedMessages(services.db, row, platformIds);
    },
    {
      scopes: sender?.scopes ?? [],
      unsupported: (platform) => `${platform} accounts have no direct messages the platform lets apps send.`,
      handle: refusalProblem,
    },
  );
}

/** The recipient at the platform and the files, checked: the conversation must be the account's, the media the owner's. */
async function outgoingMessage(services: Services, account: AccountRow, message: MessageToSend): Promise<OutgoingMessage> {
  const { recipient } = message;
  let to: OutgoingMessage['recipient'];
  if ('conversationId' in recipient) {
    const conversation = (await services
      .db('conversations')
      .where({ id: recipient.conversationId, accountId: account.id })
      .first('platformConversationId')) as { platformConversationId: string } | undefined;
    if (!conversation) throw new NotFoundError('conversation');
    to = { kind: 'user', id: conversation.platformConversationId };
  } else if ('userId' in recipient) {
    to = { kind: 'user', id: recipient.userId };
  } else {
    to = { kind: 'comment', id: recipient.commentId };
  }
  const ids = message.mediaIds ?? [];
  const files = await mediaFiles(services.db, services.config.publicUrl, ids, account.ownerId);
  const missing = ids.filter((id) => !files.has(id));
  if (missing.length > 0) throw new MediaNotFoundError(missing);
  return {
    recipient: to,
    text: message.text ?? null,
    media: ids.map((id) => files.get(id)!),
    ...(message.messagingTag ? { tag: message.messagingTag } : {}),
  };
}

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
 * The platform's messages, stored in their conversation (created for a first message to a person) with the
 * unread count reset: the account has answered. In the transaction that settles the ledger's write.
 */
export async function storeSent(
  trx: Knex.Transaction,
  account: AccountRow,
  sent: SentPart[],
  replyToCommentId: string | null,
): Promise<void> {
  await lockSentMessages(
    trx,
    account.id,
    sent.map((part) => part.platformMessageId),
  );
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
        status: 'sent',
        attachments: JSON.stringify(part.media ? [attachmentOf(part.media)] : []),
        statusHistory: JSON.stringify([{ status: 'sent', at: now.toISOString() }]),
        replyToCommentId,
      })
      .onConflict(['accountId', 'platformMessageId'])
      .ignore();
  }
  await applyEarlyReceipts(
    trx,
    account.id,
    sent.map((part) => part.platformMessageId),
  );
}
