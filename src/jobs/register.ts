import type { Services } from '../services.js';
import { purgeExpired } from './maintenance.js';

/** Every job the worker runs, defined in every process so any process can enqueue them. */
export function registerJobs(services: Services): void {
  services.scheduler.define('maintenance.purgeExpired', () => purgeExpired(services));
}
