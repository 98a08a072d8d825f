import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { webhookSettings } from './settings.js';
import { DeliveryWorker } from './worker.js';

export const hooks = defineArea({
  name: 'hooks',
  contractArea: 'Webhooks',
  handlers,
  settings: webhookSettings,
  workers: { deliveries: (services, databaseUrl) => new DeliveryWorker(services, databaseUrl) },
  // A delivery's history is kept 30 days after it ended.
  purge: async ({ db }) => ({
    deliveries: await db('deliveries')
      .where('createdAt', '<', db.raw("now() - interval '30 days'"))
      .whereIn('status', ['succeeded', 'failed'])
      .delete(),
  }),
});
