import { definePlatform } from '../platform-module.js';
import { ChatappCloudAdapter } from './adapter.js';
import { chatappCloudSettings } from './settings.js';

export const chatappCloud = definePlatform({
  ids: ['chatapp-cloud'],
  settings: chatappCloudSettings,
  create: (settings, deps) => [new ChatappCloudAdapter(settings, `${deps.publicUrl}/webhooks/chatapp-cloud`)],
});
