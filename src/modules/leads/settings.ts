import { int, intList } from '../../lib/env.js';

export interface LeadsSettings {
  /** Leads older than this many days (since received) are forgotten; 0 keeps them forever. */
  retentionDays: number;
  /** Seconds before each new attempt at a lead the platform refused to give; the last repeats until it is 90 days old. */
  retrySeconds: number[];
  /** Leads read from their platforms at once per worker process. */
  concurrency: number;
  /** How long a worker's claim on a lead (or a backfill) holds without renewal. */
  leaseSeconds: number;
  /** Test leads one form may have per minute. */
  testLeadsPerMinute: number;
}

export function leadsSettings(env: NodeJS.ProcessEnv): { leads: LeadsSettings } {
  return {
    leads: {
      retentionDays: int('LEADS_RETENTION_DAYS', 0, env),
      retrySeconds: intList('LEADS_RETRY_SECONDS', [30, 120, 600, 1800, 3600, 6 * 3600], env),
      concurrency: int('LEADS_CONCURRENCY', 16, env),
      leaseSeconds: int('LEADS_LEASE_SECONDS', 60, env),
      testLeadsPerMinute: 10,
    },
  };
}
