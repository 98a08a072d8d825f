import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { receiveMessage } from './inbound.js';
import { purgeEarlyReceipts, receiveStatus } from './receipts.js';

export const messaging = defineArea({
  name: 'messaging',
  contractArea: 'Messaging',
  handlers,
  incoming: { message: receiveMessage, message_status: receiveStatus },
  purge: async ({ db }) => ({ earlyReceipts: await purgeEarlyReceipts(db) }),
});
