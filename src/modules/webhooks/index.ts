import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { intakeSettings } from './settings.js';
import { IntakeWorker } from './worker.js';

const UNBUILT = 'every platform but those with a webhook receiver (botchat, chatapp-cloud, short_video, social_network and billing so far)';

export const webhooks = defineArea({
  name: 'webhooks',
  contractArea: 'Webhooks',
  handlers,
  partlyBuilt: { verifyPlatformWebhook: UNBUILT, receivePlatformWebhook: UNBUILT },
  settings: intakeSettings,
  workers: { intake: (services, databaseUrl) => new IntakeWorker(services, databaseUrl) },
});
