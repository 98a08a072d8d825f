import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { PushSending } from './push-worker.js';
import { walletSettings } from './settings.js';

export const wallet = defineArea({
  name: 'wallet',
  contractArea: 'Wallet',
  handlers,
  tables: ['wallet_programs', 'wallet_passes', 'wallet_transactions', 'wallet_registrations', 'wallet_pushes'],
  settings: walletSettings,
  workers: { walletPushes: (services) => new PushSending(services) },
  outstanding: { walletPushes: 'SELECT count(*) FROM wallet_pushes WHERE due_at <= now() OR lease_until > now()' },
});
