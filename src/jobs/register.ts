import { areas } from '../modules/index.js';
import type { AnyArea } from '../modules/area.js';
import type { Services } from '../services.js';
import { PURGE_JOB, purgeExpired } from './maintenance.js';
import type { Scheduler } from './scheduler.js';

/** Every job the worker runs, the areas' and the service's own, defined in every process so any process can enqueue them. */
export function registerJobs(services: Services): void {
  services.scheduler.define(PURGE_JOB, () => purgeExpired(services));
  for (const area of areas as readonly AnyArea[]) {
    for (const [name, run] of Object.entries(area.jobs?.(services) ?? {}))
      services.scheduler.define(name, run as (data: unknown) => Promise<void>);
  }
}

/** The jobs that run on an interval, in a process of the worker role. */
export async function scheduleJobs(scheduler: Scheduler): Promise<void> {
  await scheduler.every('1 hour', PURGE_JOB);
  for (const area of areas as readonly AnyArea[]) {
    for (const [name, interval] of Object.entries(area.schedules ?? {})) await scheduler.every(interval, name);
  }
}
