import type { Knex } from 'knex';
import type { AccountRow } from '../accounts/models.js';
import { MessageRefusedError } from './errors.js';

/**
 * Refuses a free-form message to a person whose last message to the account is older than the platform's window
 * (or who never wrote): for platforms that accept it and report the failure only later. `person`: the platform's
 * id of them as the conversation is keyed (a phone number is matched by its digits too).
 */
export async function assertReplyWindowOpen(db: Knex, account: AccountRow, person: string, hours: number): Promise<void> {
  const row = (await db('messages')
    .join('conversations', 'conversations.id', 'messages.conversationId')
    .where('conversations.accountId', account.id)
    .whereIn('conversations.platformConversationId', [...new Set([person, person.replace(/\D/g, '')])])
    .where('messages.direction', 'in')
    .max('messages.sentAt as at')
    .first()) as { at: Date | null } | undefined;
  const at = row?.at ?? null;
  if (at && Date.now() - at.getTime() <= hours * 3600 * 1000) return;
  throw new MessageRefusedError(
    'messaging_window_closed',
    at
      ? `${person} last wrote at ${at.toISOString()}, more than ${hours} hours ago: only a template can be sent now.`
      : `${person} never wrote to the account: only a template can be sent to them.`,
  );
}
