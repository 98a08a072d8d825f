import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { intakeSettings } from './settings.js';
import { IntakeWorker } from './worker.js';

export const webhooks = defineArea({
  name: 'webhooks',
  contractArea: 'Webhooks',
  handlers,
  settings: intakeSettings,
  workers: { intake: (services, databaseUrl) => new IntakeWorker(services, databaseUrl) },
});
