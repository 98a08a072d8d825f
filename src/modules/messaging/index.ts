import { defineArea, oneAtATime } from '../area.js';
import * as handlers from './handlers.js';
import { receiveMessages } from './inbound.js';
import { purgeEarlyReceipts, receiveStatus } from './receipts.js';

export const messaging = defineArea({
  name: 'messaging',
  contractArea: 'Messaging',
  handlers,
  incoming: { message: receiveMessages, message_status: oneAtATime(receiveStatus) },
  purge: async ({ db }) => ({ earlyReceipts: await purgeEarlyReceipts(db) }),
});
