import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { walletSettings } from './settings.js';

export const wallet = defineArea({
  name: 'wallet',
  contractArea: 'Wallet',
  handlers,
  settings: walletSettings,
});
