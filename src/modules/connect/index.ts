import { defineArea } from '../area.js';
import { connectChatappCloud } from './chatapp-cloud.js';
import { completeConnection, connectBotchat, startConnection } from './handlers.js';
import { connectQrchat, getQrchatQr, qrchatJobs, qrchatWorker } from './qrchat.js';
import {
  connectSocialNetworkAdAccounts,
  connectSocialNetworkPages,
  listAvailableSocialNetworkAdAccounts,
  listAvailableSocialNetworkPages,
} from './social-network.js';

export const connect = defineArea({
  name: 'connect',
  contractArea: 'Connect',
  handlers: {
    connectBotchat,
    connectChatappCloud,
    connectQrchat,
    getQrchatQr,
    startConnection,
    completeConnection,
    listAvailableSocialNetworkPages,
    connectSocialNetworkPages,
    listAvailableSocialNetworkAdAccounts,
    connectSocialNetworkAdAccounts,
  },
  tables: ['oauth_states', 'pending_connections', 'qrchat_sessions'],
  jobs: qrchatJobs,
  workers: { qrchat: qrchatWorker },
  // A pending connection holds a user token that no account owns: it goes when its selection window ends.
  purge: async ({ db }) => ({ pendingConnections: await db('pendingConnections').where('expiresAt', '<', db.fn.now()).delete() }),
});
