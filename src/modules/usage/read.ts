import type { components } from '../../../generated/api.js';
import { connectedAccountCount, profileCount } from '../accounts/api.js';
import type { Principal } from '../auth/principal.js';
import { listedProfiles } from '../auth/principal.js';
import type { Services } from '../../services.js';
import { COUNTERS, type Metric } from './counters.js';
import { PeriodOutOfRangeError } from './errors.js';
import { ownerPlan } from './owner-plan.js';
import { periodAt, periodNamed } from './period.js';
import type { UsageCounterRow } from './rows.js';

type Usage = components['schemas']['Usage'];

/** `GET /usage`: the period's counters and the gauges now, against the limits of the owner's plan. */
export async function readUsage(services: Services, principal: Principal, query: { period?: string; profileId?: string }): Promise<Usage> {
  const { db, config } = services;
  const now = new Date();
  const current = periodAt(now);
  const period = query.period ? periodNamed(query.period) : current;
  if (period.start > current.start) throw new PeriodOutOfRangeError(period.name);
  const profiles = await listedProfiles(db, principal, query.profileId);
  const ownerId = principal.ownerId;

  const counted = db<UsageCounterRow>('usageCounters')
    .where({ ownerId, period: period.name })
    .groupBy('counter')
    .select('counter')
    .sum({ used: 'value' });
  if (profiles) counted.whereIn('profileId', profiles);
  const [rows, connected, ownProfiles, { plan, subscriptionStatus }] = await Promise.all([
    counted as unknown as Promise<Array<Pick<UsageCounterRow, 'counter'> & { used: string }>>,
    connectedAccountCount(db, ownerId, profiles),
    profileCount(db, ownerId, profiles),
    ownerPlan(db, config.usage, ownerId),
  ]);
  const used = new Map<Metric, number>(rows.map((row) => [row.counter as Metric, Number(row.used)]));
  used.set('connectedAccounts', connected);
  used.set('profiles', ownProfiles);
  const metric = (name: Metric) => ({ used: used.get(name) ?? 0, limit: plan.limits[name] ?? null });
  return {
    period: period.name,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
    profileId: query.profileId ?? null,
    plan: plan.name,
    subscriptionStatus,
    usage: {
      ...(Object.fromEntries(COUNTERS.map((name) => [name, metric(name)])) as Record<(typeof COUNTERS)[number], ReturnType<typeof metric>>),
      connectedAccounts: metric('connectedAccounts'),
      profiles: metric('profiles'),
    },
    updatedAt: now.toISOString(),
  };
}
