import { definePlatform } from '../platform-module.js';
import { BotchatAdapter } from './adapter.js';
import { BotchatClient } from './client.js';
import { botchatSettings } from './settings.js';

export const botchat = definePlatform({
  ids: ['botchat'],
  settings: botchatSettings,
  create: (settings, deps) => [new BotchatAdapter(new BotchatClient(settings.apiUrl), `${deps.publicUrl}/webhooks/botchat`)],
});
