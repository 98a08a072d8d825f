import type { components } from '../../../generated/api.js';
import type { Attachment, Message } from './messages.js';

// The rows of the messaging area's tables, as Knex reads them (columns in camelCase).

/** A row of `messages`. */
export interface MessageRecord {
  id: string;
  conversationId: string;
  accountId: string;
  direction: 'in' | 'out';
  fromId: string;
  text: string;
  platformMessageId: string;
  sentAt: Date;
  type: Message['type'];
  status: Message['status'];
  /** With `ref`, the platform's id of a file the service downloads for the caller. */
  attachments: Array<Attachment & { ref?: string | null }>;
  statusHistory: Message['statusHistory'];
  error: Message['error'];
}

export interface ConversationRecord {
  id: string;
  profileId: string;
  accountId: string;
  platformConversationId: string;
  participant: components['schemas']['MessagingParticipant'];
  lastMessageAt: Date | null;
  unreadCount: number;
  tags: string[];
  createdAt: Date;
  updatedAt: Date;
}
