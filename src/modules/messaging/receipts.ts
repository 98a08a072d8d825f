import type { Knex } from 'knex';
import type { MessageStatusUpdate } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { accountsAddressedBy } from '../accounts/incoming.js';
import type { DeliveryStatus } from './messages.js';
import type { MessageRecord } from './rows.js';

/** How far a sent message has got: a status never goes back (a late `delivered` after `read` keeps `read`). */
const RANK: Record<DeliveryStatus, number> = { sent: 0, delivered: 1, read: 2, failed: 3 };

/**
 * A receipt from the platform's webhook: each named message the account sent gets the status in its history
 * (once per status, with the platform's time) and as its status when that is further than where it is; a failure
 * keeps the platform's reason. Receipts for messages we never sent (sent in the platform's own app) change nothing.
 */
export async function receiveStatus(
  _services: Services,
  platform: string,
  update: MessageStatusUpdate,
  trx: Knex.Transaction,
): Promise<void> {
  for (const account of await accountsAddressedBy(trx, platform, update)) {
    if (!update.watermark) await lockSentMessages(trx, account.id, update.platformMessageIds);
    const messages = await addressed(trx, account.id, update);
    for (const message of messages) await advance(trx, message, update);
    if (update.watermark) continue;
    // A receipt may beat the transaction that stores the message: kept until it is stored.
    const early = update.platformMessageIds.filter((id) => !messages.some((m) => m.platformMessageId === id));
    if (early.length === 0) continue;
    await trx('earlyReceipts')
      .insert(
        early.map((platformMessageId) => ({
          accountId: account.id,
          platformMessageId,
          status: update.status,
          at: update.at,
          error: update.error ? JSON.stringify(update.error) : null,
        })),
      )
      .onConflict(['accountId', 'platformMessageId', 'status'])
      .ignore();
  }
}

/**
 * Serialises a receipt with the store of the message it names, per platform message id: whichever commits first,
 * the other sees it (the receipt finds the message, or the store finds the early receipt).
 */
export async function lockSentMessages(trx: Knex.Transaction, accountId: string, platformMessageIds: string[]): Promise<void> {
  for (const id of [...platformMessageIds].sort())
    await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${accountId}:${id}`]);
}

/** Applies the receipts that arrived before these sent messages were stored, in the transaction that stores them. */
export async function applyEarlyReceipts(trx: Knex.Transaction, accountId: string, platformMessageIds: string[]): Promise<void> {
  const early = (await trx('earlyReceipts')
    .where({ accountId })
    .whereIn('platformMessageId', platformMessageIds)
    .delete()
    .returning(['platformMessageId', 'status', 'at', 'error'])) as Array<{
    platformMessageId: string;
    status: MessageStatusUpdate['status'];
    at: Date;
    error: MessageStatusUpdate['error'];
  }>;
  for (const receipt of early.sort((a, b) => RANK[a.status] - RANK[b.status])) {
    const update = { ...receipt, platformMessageIds: [receipt.platformMessageId] };
    const [message] = (await trx('messages')
      .where({ accountId, platformMessageId: receipt.platformMessageId })
      .forUpdate()) as MessageRecord[];
    if (message) await advance(trx, message, update);
  }
}

/** Early receipts whose message never came (sent from the platform's own app): forgotten after a day. */
export async function purgeEarlyReceipts(db: Knex): Promise<number> {
  return db('earlyReceipts').where('receivedAt', '<', db.raw("now() - interval '1 day'")).delete();
}

async function addressed(trx: Knex.Transaction, accountId: string, update: MessageStatusUpdate): Promise<MessageRecord[]> {
  const query = trx('messages').where({ accountId, direction: 'out' }).forUpdate();
  if (update.watermark) {
    const conversation = trx('conversations')
      .where({ accountId, platformConversationId: update.watermark.platformConversationId })
      .select('id');
    query.whereIn('conversationId', conversation).where('sentAt', '<=', update.watermark.upTo);
  } else {
    if (update.platformMessageIds.length === 0) return [];
    query.whereIn('platformMessageId', update.platformMessageIds);
  }
  return (await query.orderBy('id')) as MessageRecord[];
}

async function advance(
  trx: Knex.Transaction,
  message: MessageRecord,
  update: Pick<MessageStatusUpdate, 'status' | 'at' | 'error'>,
): Promise<void> {
  if (message.statusHistory.some((entry) => entry.status === update.status)) return;
  const history = [...message.statusHistory, { status: update.status, at: update.at.toISOString() }].sort(
    (a, b) => RANK[a.status] - RANK[b.status],
  );
  // A receipt can beat the record of a queued (qrchat) send: it is at least sent.
  const current = message.status === 'received' || message.status === 'pending' ? 'sent' : message.status;
  const further = RANK[update.status] > RANK[current];
  await trx('messages')
    .where({ id: message.id })
    .update({
      statusHistory: JSON.stringify(history),
      ...(further ? { status: update.status } : {}),
      ...(further && update.status === 'failed'
        ? { error: JSON.stringify(update.error ?? { code: 'unknown', message: 'The platform gave no reason.' }) }
        : {}),
    });
}
