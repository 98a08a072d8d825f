import { int } from '../../lib/env.js';
import { type Plan, readPlans } from './plans.js';

export interface UsageSettings {
  /** How often each process writes the usage it counted; also what a crash may lose at most. */
  flushMs: number;
  /** The configured plans by name; `null` when billing is not configured (everyone is on `unlimited`). */
  plans: Map<string, Plan> | null;
}

export function usageSettings(env: NodeJS.ProcessEnv): { usage: UsageSettings } {
  return { usage: { flushMs: int('USAGE_FLUSH_MS', 10_000, env), plans: readPlans(env) } };
}
