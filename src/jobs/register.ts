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

/**
 * The jobs that run on an interval, in a process of the worker role. Their rows are written all at once, not one
 * after the other: each is a commit, and commits at the same time share their flush to disk.
 */
export async function scheduleJobs(scheduler: Scheduler): Promise<void> {
  const schedules: Array<[name: string, interval: string]> = [
    [PURGE_JOB, '1 hour'],
    ...(areas as readonly AnyArea[]).flatMap((area) => Object.entries(area.schedules ?? {})),
  ];
  await Promise.all(schedules.map(([name, interval]) => scheduler.every(interval, name)));
}
