import { idOf } from '../../lib/ids.js';
import type { DriverEvents, DriverMessage } from '../../platforms/qrchat/driver.js';
import type { Services } from '../../services.js';
import { accountById } from '../accounts/read.js';
import { storeIncomingMessages } from '../messaging/inbound.js';
import { receiveStatus } from '../messaging/receipts.js';

type Receipt = Parameters<DriverEvents['receipt']>[0];

/** A message a person sent to the paired number: stored and announced as `message.received` while it is connected. */
export async function receiveDriverMessage(services: Services, accountId: string, message: DriverMessage): Promise<void> {
  const account = await accountById(services.db, idOf('acc', accountId));
  if (account?.status !== 'connected') return;
  const addressed = {
    kind: 'message' as const,
    accountId: account.id,
    platformAccountId: account.platformAccountId,
    platformConversationId: message.from,
    from: message.from,
    fromName: message.fromName,
    fromPhone: `+${message.from}`,
    text: message.text,
    platformMessageId: message.id,
    sentAt: message.sentAt,
  };
  await services.db.transaction((trx) => storeIncomingMessages(trx, services.config.publicUrl, [{ account, message: addressed }]));
}

/** The recipient's phone says a message the device sent was delivered or read: the message's status moves. */
export function receiveDriverReceipt(services: Services, accountId: string, receipt: Receipt): Promise<void> {
  return services.db.transaction((trx) =>
    receiveStatus(
      services,
      'qrchat',
      {
        kind: 'message_status',
        accountId,
        platformAccountId: null,
        status: receipt.status,
        at: receipt.at,
        platformMessageIds: [receipt.id],
      },
      trx,
    ),
  );
}
