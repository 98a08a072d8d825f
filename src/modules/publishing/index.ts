import { defineArea, oneAtATime } from '../area.js';
import * as handlers from './handlers.js';
import { recordPostMadePublic } from './made-public.js';
import { publishingSettings } from './settings.js';
import { DUE_JOB, runWake } from './wake.js';
import { TargetPublishing } from './worker.js';

export const publishing = defineArea({
  name: 'publishing',
  contractArea: 'Publishing',
  handlers,
  tables: ['posts', 'post_targets', 'queue_slots'],
  settings: publishingSettings,
  // Wakes the publishing workers when posts come due (the posts themselves are published from their table).
  jobs: (services) => ({ [DUE_JOB]: (_data: unknown, job) => runWake(services, job) }),
  incoming: { post_public: oneAtATime((_services, platform, event, trx) => recordPostMadePublic(trx, platform, event)) },
  workers: { publishing: (services) => new TargetPublishing(services) },
  outstanding: {
    postTargets: `SELECT count(*) FROM post_targets WHERE status IN ('scheduled', 'processing')
      AND (due_at <= now() OR locked_until > now())`,
  },
});
