import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { intakeSettings } from './settings.js';
import { WebhookIntake } from './worker.js';

export const webhooks = defineArea({
  name: 'webhooks',
  contractArea: 'Webhooks',
  handlers,
  tables: ['platform_webhooks'],
  settings: intakeSettings,
  workers: { intake: (services) => new WebhookIntake(services) },
  outstanding: {
    platformWebhooks: `SELECT count(*) FROM platform_webhooks WHERE processed_at IS NULL AND failed_at IS NULL
      AND (next_attempt_at <= now() OR locked_until > now())`,
  },
});
