import { definePlatform } from '../platform-module.js';
import { QrchatAdapter } from './adapter.js';
import { qrchatSettings } from './settings.js';

export const qrchat = definePlatform({
  ids: ['qrchat'],
  settings: qrchatSettings,
  create: (settings) => [new QrchatAdapter(settings.driver)],
});
