import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { processWebhook, sweepWebhooks } from './process.js';
import { PROCESS_JOB, SWEEP_JOB } from './receive.js';

const UNBUILT = 'short_video_ads, whose lead and ad events arrive with the ads and leads areas (every other source has its receiver)';

export const webhooks = defineArea({
  name: 'webhooks',
  contractArea: 'Webhooks',
  handlers,
  partlyBuilt: { verifyPlatformWebhook: UNBUILT, receivePlatformWebhook: UNBUILT },
  jobs: (services) => ({
    [PROCESS_JOB]: (data: { id: string }) => processWebhook(services, data.id),
    [SWEEP_JOB]: () => sweepWebhooks(services),
  }),
  schedules: { [SWEEP_JOB]: '1 minute' },
});
