import type { Knex } from 'knex';
import { connectedAccountCount, profileCount } from '../accounts/api.js';
import { tasksAskedSince } from '../ai/api.js';
import { targetsPublishedOrDueSince } from '../publishing/api.js';
import { PlanLimitReachedError } from './errors.js';
import { ownerPlan } from './owner-plan.js';
import { periodAt } from './period.js';
import type { HardMetric } from './plans.js';
import type { UsageSettings } from './settings.js';

/** Quotas of a month; the others count what exists now. */
const MONTHLY = new Set<HardMetric>(['posts', 'aiGenerations']);

/** How much of a hard-limited quota the owner uses now, counted exactly in the caller's transaction. */
const USED: Record<HardMetric, (trx: Knex.Transaction, ownerId: string, periodStart: Date) => Promise<number>> = {
  profiles: (trx, ownerId) => profileCount(trx, ownerId),
  connectedAccounts: (trx, ownerId) => connectedAccountCount(trx, ownerId),
  posts: (trx, ownerId, periodStart) => targetsPublishedOrDueSince(trx, ownerId, periodStart),
  // Every task asked for in the period: a provider may charge for one that fails or is cancelled.
  aiGenerations: (trx, ownerId, periodStart) => tasksAskedSince(trx, ownerId, periodStart),
};

/**
 * Refuses (402 `plan_limit_reached`) an operation that would take `metric` past a hard limit of the owner's
 * plan by `adding`. Call it in the transaction that then writes what it counts: a transaction-scoped advisory
 * lock per owner and quota makes racing operations take turns, so two cannot both pass the last unit.
 */
export async function assertWithinPlan(
  trx: Knex.Transaction,
  settings: UsageSettings,
  ownerId: string,
  metric: HardMetric,
  adding: number,
): Promise<void> {
  const { plan } = await ownerPlan(trx, settings, ownerId);
  const limit = plan.limits[metric];
  if (!plan.hard.includes(metric) || limit === undefined) return;
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [`usage:${ownerId}:${metric}`]);
  const period = periodAt(Date.now());
  const used = await USED[metric](trx, ownerId, period.start);
  if (used + adding > limit) throw new PlanLimitReachedError(metric, limit, MONTHLY.has(metric) ? period.end : null);
}
