import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { PushWorker } from './push-worker.js';
import { walletSettings } from './settings.js';

export const wallet = defineArea({
  name: 'wallet',
  contractArea: 'Wallet',
  handlers,
  settings: walletSettings,
  workers: { walletPushes: (services, databaseUrl) => new PushWorker(services, databaseUrl) },
});
