import { defineArea } from '../area.js';
import { adCreativeSettings } from './creatives/settings.js';
import { AdCreativeTaskWork } from './creatives/worker.js';
import { receiveAdAccountChanges } from './events/incoming.js';
import * as handlers from './handlers.js';

/**
 * Advertising on connected ad accounts: the campaign tree, creatives, insights, targeting and the ad.* events.
 * Each part lives in its own folder and adds its handlers to `handlers.ts`.
 */
export const ads = defineArea({
  name: 'ads',
  contractArea: 'Ads',
  handlers,
  tables: ['ad_creative_tasks', 'ad_object_changes'],
  incoming: { ad_account_change: receiveAdAccountChanges },
  settings: adCreativeSettings,
  workers: { adCreatives: (services) => new AdCreativeTaskWork(services) },
  outstanding: {
    adCreativeTasks: `SELECT count(*) FROM ad_creative_tasks WHERE status = 'processing'
      AND (next_attempt_at <= now() OR locked_until > now())`,
  },
});
