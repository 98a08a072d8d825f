import type { Knex } from 'knex';
import { readsById } from '../../lib/batcher.js';
import { onePer } from '../../lib/memo.js';
import { NotFoundError } from '../../lib/errors.js';
import { idOf } from '../../lib/ids.js';
import type { OutgoingMessage, SentPart } from '../../platforms/capabilities/messaging.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import type { AccountRow } from '../accounts/models.js';
import { withConnectedAccount } from '../accounts/platform-call.js';
import { findAccount } from '../accounts/read.js';
import { mediaFiles } from '../media/read.js';
import { writeOnce } from '../platform-writes/ledger.js';
import { AccountUnpairedError, MediaNotFoundError, MessageInvalidError, refusalProblem } from './errors.js';
import type { Message } from './messages.js';
import { sendFromSession, sessionSends } from './qrchat-outbox.js';
import { keptAsSent, storedMessages } from './stored.js';
import { assertReplyWindowOpen } from './window.js';

/** Who a message goes to: one of the account's conversations, a person by the platform's id, a comment's author. */
export type Recipient = { conversationId: string } | { userId: string } | { commentId: string };

export interface MessageToSend {
  recipient: Recipient;
  text?: string | null;
  mediaIds?: string[];
  /** A Messenger message tag (outside the 24-hour window). */
  messagingTag?: string;
}

/** The account a message was sent from, and the platform's ids of its parts, in sending order. */
interface Sent {
  account: AccountRow;
  platformMessageIds: string[];
}

/** Sends as `deliverMessage` does, and answers the stored messages, in sending order. */
export async function sendMessage(
  services: Services,
  principal: Principal,
  accountId: string,
  message: MessageToSend,
  ledgerKey: string,
): Promise<Message[]> {
  const { account, platformMessageIds } = await deliverMessage(services, principal, accountId, message, ledgerKey);
  return storedMessages(services.db, account, platformMessageIds);
}

/**
 * Sends a message from one of the caller's accounts, with the caller's media (its key must reach both). Needs no
 * HTTP caller: an automation sends through it too (as the owner itself), and keeps nothing of what was stored. Each platform call is one write of the ledger under `<ledgerKey>:<part>`,
 * so the same key asked again answers the parts sent already and sends only the others, and a lost answer is
 * never sent again. Each platform message counts once in the `messages` usage.
 */
export async function deliverMessage(
  services: Services,
  principal: Principal,
  accountId: string,
  message: MessageToSend,
  ledgerKey: string,
): Promise<Sent> {
  const conversation = conversationOf(services.db, message.recipient);
  const found = await findAccount(services.db, principal, idOf('acc', accountId));
  const adapter = services.platforms.get(found.platform);
  if (adapter?.sessionMessaging) {
    if (found.status !== 'connected' && found.platformAccountId) throw new AccountUnpairedError(found.status);
    return sendThroughSession(services, principal, found, message, conversation, ledgerKey);
  }
  const sender = adapter?.messaging;
  return withConnectedAccount(
    services,
    principal,
    found,
    'messaging',
    async (adapter, account, row) => {
      const outgoing = await outgoingMessage(services, principal, row, message, conversation);
      const violations = adapter.messaging.validate(outgoing);
      if (violations.length > 0) throw new MessageInvalidError(violations);
      const window = adapter.messaging.windowRefusedLate ? adapter.messaging.replyWindowHours : undefined;
      if (window !== undefined && outgoing.recipient.kind === 'user')
        await assertReplyWindowOpen(services.db, row, outgoing.recipient.id, window);
      const platformIds: string[] = [];
      for (const [index, part] of adapter.messaging.parts(outgoing).entries()) {
        const written = await writeOnce<SentPart[]>(services.db, {
          ownerId: row.ownerId,
          accountId: row.id,
          key: `${ledgerKey}:${index}`,
          kind: 'message.send',
          request: { recipient: outgoing.recipient, tag: outgoing.tag ?? null, text: part.text, mediaIds: part.media.map((m) => m.id) },
          send: () => adapter.messaging.send(account, outgoing, part),
          ...keptAsSent(row, {
            replyToCommentId: outgoing.recipient.kind === 'comment' ? outgoing.recipient.id : null,
            receipts: adapter.messaging.receipts,
          }),
        });
        if (written.how !== 'replayed') services.usage.record(row.ownerId, row.profileId, 'messages', written.result.length);
        platformIds.push(...written.result.map((sent) => sent.platformMessageId));
      }
      return { account: row, platformMessageIds: platformIds };
    },
    {
      scopes: sender?.scopes ?? [],
      unsupported: (platform) => `${platform} accounts have no direct messages the platform lets apps send.`,
      handle: refusalProblem,
    },
  );
}

/** A send from an account whose messages leave through a live session (qrchat): queued for the session's holder. */
async function sendThroughSession(
  services: Services,
  principal: Principal,
  account: AccountRow,
  message: MessageToSend,
  conversation: Promise<ConversationRead | undefined> | null,
  ledgerKey: string,
): Promise<Sent> {
  return withConnectedAccount(services, principal, account, 'sessionMessaging', async (adapter, _account, row) => {
    const outgoing = await outgoingMessage(services, principal, row, message, conversation);
    const violations = adapter.sessionMessaging.validate(outgoing);
    if (violations.length > 0) throw new MessageInvalidError(violations);
    const sends = sessionSends(outgoing.recipient.id.replace(/^\+/, ''), outgoing, adapter.sessionMessaging.parts(outgoing));
    const ids = await sendFromSession(services, row, adapter.sessionMessaging.newMessageId, sends, {
      key: ledgerKey,
      kind: 'message.send',
    });
    return { account: row, platformMessageIds: ids };
  });
}

interface ConversationRead {
  id: string;
  accountId: string;
  platformConversationId: string;
}

/** Conversations read at about the same time (an automation worker's many replies) are read in one query. */
const conversationReads = onePer((db: Knex) =>
  readsById(
    (ids) => db('conversations').whereIn('id', ids).select('id', 'accountId', 'platformConversationId') as Promise<ConversationRead[]>,
  ),
);

/**
 * The recipient's conversation, read while the account is (one round trip for both, not one after the other); it
 * is looked at only once the account has been found, so a missing account is still what a caller is told first.
 */
function conversationOf(db: Knex, recipient: Recipient): Promise<ConversationRead | undefined> | null {
  if (!('conversationId' in recipient)) return null;
  const read = conversationReads(db).add(recipient.conversationId);
  read.catch(() => undefined); // looked at later, or never when the account is refused
  return read;
}

/** The recipient at the platform and the files, checked: the conversation must be the account's, the media the caller's. */
async function outgoingMessage(
  services: Services,
  principal: Principal,
  account: AccountRow,
  message: MessageToSend,
  conversationRead: Promise<ConversationRead | undefined> | null,
): Promise<OutgoingMessage> {
  const { recipient } = message;
  let to: OutgoingMessage['recipient'];
  if ('conversationId' in recipient) {
    const conversation = await conversationRead;
    if (conversation?.accountId !== account.id) throw new NotFoundError('conversation');
    to = { kind: 'user', id: conversation.platformConversationId };
  } else if ('userId' in recipient) {
    to = { kind: 'user', id: recipient.userId };
  } else {
    to = { kind: 'comment', id: recipient.commentId };
  }
  const ids = message.mediaIds ?? [];
  const files = await mediaFiles(services.db, services.config.publicUrl, principal, ids);
  const missing = ids.filter((id) => !files.has(id));
  if (missing.length > 0) throw new MediaNotFoundError(missing);
  return {
    recipient: to,
    text: message.text ?? null,
    media: ids.map((id) => files.get(id)!),
    ...(message.messagingTag ? { tag: message.messagingTag } : {}),
  };
}
