import { defineArea } from '../area.js';
import { purgeCache } from './cache.js';
import * as handlers from './handlers.js';
import { SNAPSHOT_JOB, type SnapshotJob, takeSnapshots } from './snapshots.js';
import { purgeThrottles } from './throttle.js';

export const analytics = defineArea({
  name: 'analytics',
  contractArea: 'Analytics',
  handlers,
  tables: ['analytics_cache', 'analytics_dead_metrics', 'analytics_follower_snapshots', 'analytics_throttles'],
  // Followers of platforms that give only a current count: one snapshot per account and day; running every six
  // hours takes a day's snapshot soon after it starts, even when a worker was down at midnight.
  jobs: (services) => ({ [SNAPSHOT_JOB]: (data: SnapshotJob | undefined) => takeSnapshots(services, data ?? {}) }),
  schedules: { [SNAPSHOT_JOB]: '6 hours' },
  purge: async ({ db }) => ({ analyticsFigures: await purgeCache(db), analyticsThrottles: await purgeThrottles(db) }),
});
