import { defineArea, oneAtATime } from '../area.js';
import * as handlers from './handlers.js';
import { receiveMessages } from './inbound.js';
import { purgeEarlyReceipts, receiveStatus } from './receipts.js';

export const messaging = defineArea({
  name: 'messaging',
  contractArea: 'Messaging',
  handlers,
  tables: ['conversations', 'messages', 'early_receipts', 'qrchat_sends'],
  incoming: { message: receiveMessages, message_status: oneAtATime(receiveStatus) },
  purge: async ({ db }) => ({ earlyReceipts: await purgeEarlyReceipts(db) }),
});
