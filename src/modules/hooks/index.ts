import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { webhookSettings } from './settings.js';
import { DeliverySending } from './worker.js';

export const hooks = defineArea({
  name: 'hooks',
  contractArea: 'Webhooks',
  handlers,
  tables: ['hooks', 'deliveries', 'delivery_attempts'],
  settings: webhookSettings,
  workers: { deliveries: (services) => new DeliverySending(services) },
  // The deliveries worker also fans out the events outbox (src/modules/events) into deliveries.
  outstanding: {
    undispatchedEvents: 'SELECT count(*) FROM events WHERE dispatched_at IS NULL',
    deliveries: `SELECT count(*) FROM deliveries WHERE status IN ('pending', 'retrying')
      AND (next_attempt_at <= now() OR locked_until > now())`,
  },
  // A delivery's history is kept 30 days after it ended.
  purge: async ({ db }) => ({
    deliveries: await db('deliveries')
      .where('createdAt', '<', db.raw("now() - interval '30 days'"))
      .whereIn('status', ['succeeded', 'failed'])
      .delete(),
  }),
});
