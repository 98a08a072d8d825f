import type { Services } from '../services.js';
import { registerQrchat } from '../modules/connect/qrchat.js';
import { purgeExpired } from './maintenance.js';
import { processWebhook, sweepWebhooks } from '../modules/webhooks/process.js';
import { PROCESS_JOB } from '../modules/webhooks/receive.js';
import { REFRESH_JOB, refreshExpiringTokens } from '../modules/accounts/refresh.js';
import { DUE_JOB, runWake } from '../modules/publishing/wake.js';

/** Every job the worker runs, defined in every process so any process can enqueue them. */
export function registerJobs(services: Services): void {
  services.scheduler.define('maintenance.purgeExpired', () => purgeExpired(services));
  services.scheduler.define<{ id: string }>(PROCESS_JOB, (data) => processWebhook(services, data.id));
  services.scheduler.define('platformWebhooks.sweep', () => sweepWebhooks(services));
  // qrchat sessions are held by processes that run jobs; its manager also defines the job that opens them.
  registerQrchat(services);
  services.scheduler.define(REFRESH_JOB, async () => {
    await refreshExpiringTokens(services);
  });
  // Wakes the publishing workers when posts come due (the posts themselves are published from their table).
  services.scheduler.define(DUE_JOB, (_data, job) => runWake(services, job));
}
