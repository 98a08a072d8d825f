import type { components } from '../../../generated/api.js';
import { NotFoundError } from '../../lib/errors.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import { idOf } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { findAccount } from '../accounts/read.js';
import type { AccountRow } from '../accounts/models.js';
import { presentMessage } from './messages.js';
import type { ConversationRecord, MessageRecord } from './rows.js';

type Conversation = components['schemas']['Conversation'];

/** `canReplyUntil` where the account's platform lets it answer only so long after the person's last message. */
async function presentConversations(
  services: Services,
  account: AccountRow,
  rows: ConversationRecord[],
): Promise<Map<string, Conversation>> {
  const { db } = services;
  const windowHours = services.platforms.capability(account.platform, 'messaging')?.replyWindowHours;
  const last =
    rows.length === 0
      ? []
      : ((await db('messages')
          .distinctOn('conversationId')
          .whereIn(
            'conversationId',
            rows.map((row) => row.id),
          )
          .orderBy([{ column: 'conversationId' }, { column: 'id', order: 'desc' }])) as MessageRecord[]);
  const lastIn =
    rows.length === 0
      ? []
      : ((await db('messages')
          .select('conversationId')
          .max('sentAt as at')
          .whereIn(
            'conversationId',
            rows.map((row) => row.id),
          )
          .where({ direction: 'in' })
          .groupBy('conversationId')) as Array<{ conversationId: string; at: Date }>);
  return new Map(
    rows.map((row) => {
      const message = last.find((m) => m.conversationId === row.id);
      const lastInAt = lastIn.find((m) => m.conversationId === row.id)?.at;
      return [
        row.id,
        {
          id: row.id,
          accountId: account.id,
          profileId: row.profileId,
          platform: account.platform as Conversation['platform'],
          platformConversationId: row.platformConversationId,
          title: row.participant.name ?? row.participant.username ?? null,
          participants: [row.participant],
          lastMessage: message
            ? {
                id: message.id,
                direction: message.direction,
                type: message.type,
                text: message.text.slice(0, 200),
                createdAt: message.sentAt.toISOString(),
              }
            : null,
          lastMessageAt: row.lastMessageAt?.toISOString() ?? null,
          unreadCount: row.unreadCount,
          canReplyUntil:
            windowHours !== undefined && lastInAt ? new Date(lastInAt.getTime() + windowHours * 3600 * 1000).toISOString() : null,
          tags: row.tags,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
        },
      ];
    }),
  );
}

export async function listConversations(
  services: Services,
  principal: Principal,
  accountId: string,
  page: PageRequest,
  filters: {
    unread?: boolean;
    tag?: string;
  },
): Promise<Page<Conversation>> {
  const { db } = services;
  const account = await findAccount(db, principal, idOf('acc', accountId));
  const query = db('conversations')
    .where({ accountId: account.id })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (filters.unread === true) query.where('unreadCount', '>', 0);
  if (filters.unread === false) query.where({ unreadCount: 0 });
  if (filters.tag) query.whereRaw('? = any(tags)', [filters.tag]);
  if (page.after) query.where('id', '<', page.after);
  const rows = (await query) as ConversationRecord[];
  const presented = await presentConversations(services, account, rows);
  return toPage(rows, page, (row) => presented.get(row.id)!);
}

/** One conversation with a page of its messages, newest first. */
export async function getConversation(
  services: Services,
  principal: Principal,
  accountId: string,
  conversationId: string,
  page: PageRequest,
) {
  const { db } = services;
  const account = await findAccount(db, principal, idOf('acc', accountId));
  const conversation = (await db('conversations').where({ id: conversationId, accountId: account.id }).first()) as
    ConversationRecord | undefined;
  if (!conversation) throw new NotFoundError('conversation');
  const query = db('messages')
    .where({ conversationId })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.after) query.where('id', '<', page.after);
  const messages = toPage((await query) as MessageRecord[], page, (message) => presentMessage(account, conversation, message));
  return { ...(await presentConversations(services, account, [conversation])).get(conversation.id)!, messages };
}
