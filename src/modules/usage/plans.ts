import { readFileSync } from 'node:fs';
import { METRICS, type Metric } from './counters.js';

export type Interval = 'month' | 'year';

/** A plan as the operator configures it: the prices it is sold at, its limits, and which limits are hard. */
export interface Plan {
  name: string;
  /** The payment provider's price lookup keys, per billing interval (none for `free`). */
  prices: Partial<Record<Interval, string>>;
  /** The most of each quota the plan allows; a quota not named is unlimited. */
  limits: Partial<Record<Metric, number>>;
  /** Quotas whose limit refuses the operation that would exceed it (402); the others are shown only. */
  hard: HardMetric[];
}

/** Quotas a limit can be enforced on exactly (see limits.ts); the others are counted in memory, after the fact. */
export const HARD_METRICS = ['posts', 'profiles', 'connectedAccounts', 'aiGenerations'] as const;
export type HardMetric = (typeof HARD_METRICS)[number];

/** No billing configured (self-hosted): one plan, without limits. */
export const UNLIMITED: Plan = { name: 'unlimited', prices: {}, limits: {}, hard: [] };

/**
 * The plans from `BILLING_PLANS` (JSON) or `BILLING_PLANS_FILE` (a JSON file): an object of plans by name, e.g.
 * `{"free": {"limits": {"posts": 30}, "hard": ["posts"]}, "pro": {"prices": {"month": "pro_monthly"}, "limits": {…}}}`.
 * `free` must be one of them (owners without a paid subscription are on it). `null` when neither is set.
 */
export function readPlans(env: NodeJS.ProcessEnv): Map<string, Plan> | null {
  const raw = env.BILLING_PLANS || (env.BILLING_PLANS_FILE ? readFileSync(env.BILLING_PLANS_FILE, 'utf8') : '');
  if (!raw) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new Error(`BILLING_PLANS is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('BILLING_PLANS must be an object of plans by name');
  const plans = new Map(Object.entries(parsed).map(([name, value]) => [name, planFrom(name, value)]));
  if (!plans.has('free')) throw new Error('BILLING_PLANS must have a "free" plan: owners without a subscription are on it');
  if (plans.has(UNLIMITED.name))
    throw new Error('BILLING_PLANS cannot name a plan "unlimited": that is the plan of an instance without billing');
  return plans;
}

function planFrom(name: string, value: unknown): Plan {
  const fail = (what: string) => new Error(`BILLING_PLANS: plan "${name}" ${what}`);
  if (!/^[a-z][a-z0-9_-]{0,31}$/.test(name)) throw fail('must be named with lower-case letters, digits, _ and - (at most 32)');
  const {
    prices = {},
    limits = {},
    hard = [],
  } = (value ?? {}) as { prices?: Record<string, unknown>; limits?: Record<string, unknown>; hard?: unknown[] };
  for (const [interval, key] of Object.entries(prices)) {
    if (interval !== 'month' && interval !== 'year') throw fail(`has a price for "${interval}"; intervals are month and year`);
    if (typeof key !== 'string' || !key) throw fail(`needs a price lookup key for ${interval}`);
  }
  for (const [metric, limit] of Object.entries(limits)) {
    if (!(METRICS as readonly string[]).includes(metric)) throw fail(`limits "${metric}", which is not one of ${METRICS.join(', ')}`);
    if (!Number.isInteger(limit) || (limit as number) < 0)
      throw fail(`limits ${metric} to ${String(limit)}; a limit is a non-negative integer`);
  }
  for (const metric of hard) {
    if (!(HARD_METRICS as readonly unknown[]).includes(metric))
      throw fail(`makes "${String(metric)}" hard; only ${HARD_METRICS.join(', ')} can be`);
    if (!(String(metric) in limits)) throw fail(`makes ${String(metric)} hard without a limit for it`);
  }
  return { name, prices: prices as Plan['prices'], limits: limits as Plan['limits'], hard: hard as HardMetric[] };
}
