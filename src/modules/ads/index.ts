import { defineArea } from '../area.js';
import { adBoostSettings } from './boost/settings.js';
import { AdBoostWork, BOOSTS_OUTSTANDING } from './boost/worker.js';
import { adCreativeSettings } from './creatives/settings.js';
import { AdCreativeTaskWork } from './creatives/worker.js';
import { receiveAdAccountChanges } from './events/incoming.js';
import * as handlers from './handlers.js';
import { purgeSentEvents } from './pixels/events.js';

/**
 * Advertising on connected ad accounts: the campaign tree, creatives, insights, targeting and the ad.* events.
 * Each part lives in its own folder and adds its handlers to `handlers.ts`.
 */
export const ads = defineArea({
  name: 'ads',
  contractArea: 'Ads',
  handlers,
  tables: [
    'ad_audience_uploads',
    'ad_creative_tasks',
    'ad_object_changes',
    'ad_boosts',
    'ad_boost_steps',
    'ad_pixel_events',
    'ad_dark_posts',
  ],
  incoming: { ad_account_change: receiveAdAccountChanges },
  settings: (env) => ({ ...adCreativeSettings(env), ...adBoostSettings(env) }),
  purge: async ({ db }) => ({ adPixelEvents: await purgeSentEvents(db) }),
  workers: { adCreatives: (services) => new AdCreativeTaskWork(services), adBoosts: (services) => new AdBoostWork(services) },
  outstanding: {
    adCreativeTasks: `SELECT count(*) FROM ad_creative_tasks WHERE status = 'processing'
      AND (next_attempt_at <= now() OR locked_until > now())`,
    adBoosts: BOOSTS_OUTSTANDING,
  },
});
