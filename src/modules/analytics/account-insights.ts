import type { components } from '../../../generated/api.js';
import { type AnalyticsMetric, type InsightsPeriod, isGone, type MetricMap } from '../../platforms/capabilities/insights.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withInsights } from './access.js';
import { MetricNotSupportedError } from './errors.js';
import { readFigures } from './figures.js';
import { dayRange } from './period.js';

type AccountInsights = components['schemas']['AccountInsights'];

/** The metrics of a map the platform still gives. */
export function offeredBy(map: MetricMap): AnalyticsMetric[] {
  return (Object.keys(map) as AnalyticsMetric[]).filter((metric) => !isGone(map[metric]));
}

/** Metrics asked for that the platform has never given (not in its map at all): a 422 naming each. */
export function assertKnown(platform: string, map: MetricMap, metrics: readonly AnalyticsMetric[], what = ''): void {
  const never = metrics.map((metric, index) => ({ metric, index })).filter(({ metric }) => !(metric in map));
  if (never.length > 0) throw new MetricNotSupportedError(platform, never, offeredBy(map), what);
}

/** `GET /accounts/{id}/insights`: each metric's values, one per window ending on each day of the period. */
export function accountInsights(
  services: Services,
  principal: Principal,
  accountId: string,
  query: { metrics?: AnalyticsMetric[]; period?: InsightsPeriod; since?: string; until?: string },
): Promise<AccountInsights> {
  const range = dayRange(query.since, query.until, ['since', 'until']);
  const period = query.period ?? 'day';
  return withInsights(services, principal, accountId, 'account', async (source, row) => {
    const map = source.insights.metrics;
    const metrics = query.metrics ?? (Object.keys(map) as AnalyticsMetric[]);
    assertKnown(row.platform, map, metrics);
    const figures = await readFigures(source, metrics, period, range.since, range.until);
    return {
      accountId: row.id,
      platform: row.platform as AccountInsights['platform'],
      period,
      since: range.since,
      until: range.until,
      timeZone: source.insights.days.timeZone,
      dayBoundary: source.insights.days.boundary,
      series: metrics.filter((metric) => figures.series.has(metric)).map((metric) => ({ metric, values: figures.series.get(metric)! })),
      unsupported: figures.unsupported,
      updatedAt: figures.updatedAt.toISOString(),
    };
  });
}
