import { int } from '../../lib/env.js';
import { type Plan, readPlans } from './plans.js';

/**
 * The shortest flush interval allowed: each flush is one upsert per process, so a smaller one would turn counting
 * back into a database write per few requests (what batching is for).
 */
export const MIN_FLUSH_MS = 1_000;

export interface UsageSettings {
  /** How often each process writes the usage it counted; also what a crash may lose at most. */
  flushMs: number;
  /** The configured plans by name; `null` when billing is not configured (everyone is on `unlimited`). */
  plans: Map<string, Plan> | null;
}

export function usageSettings(env: NodeJS.ProcessEnv): { usage: UsageSettings } {
  const flushMs = int('USAGE_FLUSH_MS', 10_000, env);
  if (flushMs < MIN_FLUSH_MS)
    throw new Error(`USAGE_FLUSH_MS must be at least ${MIN_FLUSH_MS} (milliseconds between writes of the usage counted), got ${flushMs}`);
  return { usage: { flushMs, plans: readPlans(env) } };
}
