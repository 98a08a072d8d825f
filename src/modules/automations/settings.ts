import { int } from '../../lib/env.js';

export interface AutomationSettings {
  /** Runs worked on at once per worker process. */
  concurrency: number;
  /** How long a claim on a run lasts without renewal: how soon after a worker dies another goes on with it. */
  leaseSeconds: number;
}

export function automationSettings(env: NodeJS.ProcessEnv): { automations: AutomationSettings } {
  return {
    automations: {
      concurrency: int('AUTOMATION_CONCURRENCY', 200, env),
      leaseSeconds: int('AUTOMATION_LEASE_SECONDS', 10, env),
    },
  };
}
