import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import type { OutgoingMessage, OutgoingPart, SentPart } from '../../platforms/capabilities/messaging.js';
import type { DriverOutgoing } from '../../platforms/qrchat/driver.js';
import type { Services } from '../../services.js';
import type { AccountRow } from '../accounts/models.js';
import { qrchatAccountsHeldBy } from '../connect/api.js';
import { writeOnce } from '../platform-writes/ledger.js';
import type { MessageRecord } from './rows.js';
import { storeSent } from './stored.js';

/**
 * qrchat sends go out through the linked device's socket, which only the worker process holding the session has
 * (src/modules/connect/qrchat-sessions.ts), while any API process takes the request. So a send is a row of
 * `qrchat_sends`, written with its message (`pending`) in the transaction that settles the ledger's write under
 * the request's key (a retry finds it there and queues nothing more); the holder sends it with the message id
 * chosen here (a repeat of an id is one message to the recipient, so a holder that died between the socket and
 * its record sends it again harmlessly), then records `sent` or `failed`. The request waits that long at most.
 */
const SEND_WAIT_MS = 8_000;
const POLL_MS = 100;

/** One message to queue: what the device sends (its id is given when it is queued) and how it is stored. */
export interface SessionSend {
  message: Omit<DriverOutgoing, 'id'>;
  stored: Pick<SentPart, 'kind' | 'text' | 'media'>;
}

/** A queued send, as the session's holder reads it. */
export interface QueuedSend {
  accountId: string;
  message: DriverOutgoing;
}

/** The messages of a send to `to` (E.164 digits): the text, or each file with the text as the first one's caption. */
export function sessionSends(to: string, outgoing: OutgoingMessage, parts: OutgoingPart[]): SessionSend[] {
  return parts.map((part) => {
    const file = part.media[0];
    const kind = !file ? 'text' : file.kind === 'gif' ? 'video' : file.kind;
    return {
      message: {
        to,
        kind,
        text: part.text,
        media: file ? { url: file.url, mimeType: file.mimeType, fileName: null } : null,
        reactTo: null,
      },
      stored: { kind, text: part.text, media: file ?? null },
    };
  });
}

/**
 * Queues the messages for the session's holder under the ledger's `<key>:<index>`, each counted once in the
 * `messages` usage, and answers their platform ids once the holder settled them or after SEND_WAIT_MS, when they
 * are still `pending`.
 */
export async function sendFromSession(
  services: Services,
  account: AccountRow,
  newMessageId: () => string,
  sends: SessionSend[],
  ledger: { key: string; kind: string },
): Promise<string[]> {
  const ids: string[] = [];
  for (const [index, send] of sends.entries()) {
    const written = await writeOnce<SentPart[]>(services.db, {
      ownerId: account.ownerId,
      accountId: account.id,
      key: `${ledger.key}:${index}`,
      kind: ledger.kind,
      request: send.message,
      send: async () => [{ platformMessageId: newMessageId(), platformConversationId: send.message.to, ...send.stored }],
      store: async (trx, sent) => {
        await storeSent(trx, account, sent, { status: 'pending', receipts: true });
        await trx('qrchatSends').insert(
          sent.map((part) => ({
            accountId: account.id,
            platformMessageId: part.platformMessageId,
            message: JSON.stringify({ ...send.message, id: part.platformMessageId }),
          })),
        );
      },
    });
    if (written.how !== 'replayed') services.usage.record(account.ownerId, account.profileId, 'messages', written.result.length);
    ids.push(...written.result.map((sent) => sent.platformMessageId));
  }
  await settledOrDue(services.db, account.id, ids, Date.now() + SEND_WAIT_MS);
  return ids;
}

async function settledOrDue(db: Knex, accountId: string, ids: string[], deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const queued = await db('qrchatSends').where({ accountId, status: 'queued' }).whereIn('platformMessageId', ids).first('accountId');
    if (!queued) return;
    await sleep(POLL_MS);
  }
}

/** The sends queued for the sessions `holder` holds of these accounts, oldest first. */
export async function queuedSends(db: Knex, holder: string, accountIds: string[], limit = 100): Promise<QueuedSend[]> {
  if (accountIds.length === 0) return [];
  return (await db('qrchatSends')
    .whereIn('accountId', accountIds)
    .whereIn('accountId', qrchatAccountsHeldBy(db, holder))
    .where({ status: 'queued' })
    .orderBy('createdAt')
    .limit(limit)
    .select('accountId', 'message')) as QueuedSend[];
}

/**
 * The holder's outcome of a send, on it and its message (`sent`, or `failed` with why), once. A receipt may have
 * reached the message first (the socket reports it right after the send): its status stays, `sent` goes first.
 */
export async function settleSend(db: Knex, accountId: string, platformMessageId: string, failure: string | null): Promise<void> {
  await db.transaction(async (trx) => {
    const settled = await trx('qrchatSends')
      .where({ accountId, platformMessageId, status: 'queued' })
      .update({ status: failure ? 'failed' : 'sent', error: failure, settledAt: new Date() });
    if (settled === 0) return;
    const [message] = (await trx('messages').where({ accountId, platformMessageId }).forUpdate()) as MessageRecord[];
    if (!message) return;
    const entry = { status: failure ? ('failed' as const) : ('sent' as const), at: new Date().toISOString() };
    await trx('messages')
      .where({ id: message.id })
      .update({
        statusHistory: JSON.stringify(failure ? [...message.statusHistory, entry] : [entry, ...message.statusHistory]),
        ...(message.status === 'pending' ? { status: entry.status } : {}),
        ...(failure ? { error: JSON.stringify({ code: 'session_logged_out', message: failure }) } : {}),
      });
  });
}

/** The session is gone (logged out on the phone): what was queued for it will never leave, and fails with why. */
export async function failQueuedSends(db: Knex, accountId: string, why: string): Promise<void> {
  const queued = (await db('qrchatSends').where({ accountId, status: 'queued' }).select('platformMessageId')) as Array<{
    platformMessageId: string;
  }>;
  for (const { platformMessageId } of queued) await settleSend(db, accountId, platformMessageId, why);
}
