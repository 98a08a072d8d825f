import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { receiveMessage } from './inbound.js';
import { purgeEarlyReceipts, receiveStatus } from './receipts.js';

export const messaging = defineArea({
  name: 'messaging',
  contractArea: 'Messaging',
  handlers,
  partlyBuilt: {
    sendMessage: 'Built for botchat, social_network (Messenger) and chatapp-cloud; qrchat answers 501 not_implemented until built.',
    sendChatappMessage: 'Built for chatapp-cloud; qrchat answers 501 not_implemented until built.',
  },
  incoming: { message: receiveMessage, message_status: receiveStatus },
  purge: async ({ db }) => ({ earlyReceipts: await purgeEarlyReceipts(db) }),
});
