import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { NotFoundError } from '../../lib/errors.js';
import { idOf } from '../../lib/ids.js';
import type { Principal } from '../auth/principal.js';
import { findAccount } from '../accounts/read.js';
import type { AccountRow } from '../accounts/models.js';
import type { MessageRecord } from './rows.js';

export type Message = components['schemas']['Message'];
export type Attachment = components['schemas']['MessageAttachment'];
type Participant = components['schemas']['MessagingParticipant'];
export type DeliveryStatus = Message['statusHistory'][number]['status'];

/** A conversation as a message shows it: who the other party is. */
interface ConversationParticipant {
  id: string;
  participant: Participant;
}

export function presentMessage(account: AccountRow, conversation: ConversationParticipant, message: MessageRecord): Message {
  const from: Participant =
    message.direction === 'in'
      ? conversation.participant
      : { id: account.platformAccountId ?? account.id, name: account.name, username: account.username, phone: null };
  return {
    id: message.id,
    accountId: account.id,
    conversationId: conversation.id,
    platform: account.platform as Message['platform'],
    direction: message.direction,
    type: message.type,
    from,
    // A file sent without a caption has no text; a received one keeps what the platform gave ("").
    text: message.direction === 'out' && message.text === '' ? null : message.text,
    attachments: message.attachments.map(({ type, url, mediaId, mimeType, fileName, size }) => ({
      type,
      url,
      mediaId,
      mimeType,
      fileName,
      size,
    })),
    platformMessageId: message.platformMessageId,
    status: message.status,
    statusHistory: message.statusHistory,
    error: message.error,
    createdAt: message.sentAt.toISOString(),
  };
}

/** Stored messages of one account, presented with their conversations' participants, in the order given. */
export async function presentMessages(db: Knex, account: AccountRow, messages: MessageRecord[]): Promise<Message[]> {
  const ids = [...new Set(messages.map((m) => m.conversationId))];
  const conversations = (await db('conversations').whereIn('id', ids).select('id', 'participant')) as ConversationParticipant[];
  const byId = new Map(conversations.map((c) => [c.id, c]));
  return messages.map((message) => presentMessage(account, byId.get(message.conversationId)!, message));
}

/** One message of the caller's account. */
export async function getMessage(db: Knex, principal: Principal, accountId: string, messageId: string): Promise<Message> {
  const account = await findAccount(db, principal, idOf('acc', accountId));
  const message = (await db('messages').where({ id: messageId, accountId: account.id }).first()) as MessageRecord | undefined;
  if (!message) throw new NotFoundError('message');
  return (await presentMessages(db, account, [message]))[0]!;
}

/** The platform's id of a file of an incoming message of the caller's account, which the service downloads. */
export async function attachmentRef(db: Knex, principal: Principal, accountId: string, messageId: string, index: number): Promise<string> {
  const account = await findAccount(db, principal, idOf('acc', accountId));
  const message = (await db('messages').where({ id: messageId, accountId: account.id }).first('attachments')) as
    Pick<MessageRecord, 'attachments'> | undefined;
  const ref = message?.attachments[index]?.ref;
  if (!ref) throw new NotFoundError('attachment');
  return ref;
}
