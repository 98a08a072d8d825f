import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { intakeSettings } from './settings.js';
import { IntakeWorker } from './worker.js';

const UNBUILT = 'short_video_ads, whose lead and ad events arrive with the ads and leads areas (every other source has its receiver)';

export const webhooks = defineArea({
  name: 'webhooks',
  contractArea: 'Webhooks',
  handlers,
  partlyBuilt: { verifyPlatformWebhook: UNBUILT, receivePlatformWebhook: UNBUILT },
  settings: intakeSettings,
  workers: { intake: (services, databaseUrl) => new IntakeWorker(services, databaseUrl) },
});
