import { DateTime, IANAZone } from 'luxon';
import type { components } from '../../../generated/api.js';
import { type AnalyticsMetric, type DatedValues, type InsightsPeriod, shownMetric } from '../../platforms/capabilities/insights.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { publishedBetween } from '../publishing/api.js';
import { withInsights } from './access.js';
import { type FigureSource, readFigures, type Unsupported } from './figures.js';
import { type DayRange, dayRange, previousRange } from './period.js';
import { snapshotsOf } from './snapshots.js';

type Summary = components['schemas']['AnalyticsSummary'];
type Compared = { value: number | null; previous: number | null; change: number | null };

/** Periods whose unique counts (reach) the platforms compute themselves; other lengths cannot be added up. */
const NATIVE_WINDOWS: Record<number, InsightsPeriod> = { 1: 'day', 7: 'week', 28: 'days_28' };

const round = (value: number) => Math.round(value * 10_000) / 10_000;
function compared(value: number | null, previous: number | null): Compared {
  return { value, previous, change: value === null || !previous ? null : round((value - previous) / previous) };
}

/** A flow over the range: its known days added up (days of the platform's data lag are not known yet); null when none is. */
function total(values: DatedValues | undefined, range: DayRange): number | null {
  const known = (values ?? []).filter((p) => p.date >= range.since && p.date <= range.until && typeof p.value === 'number');
  return known.length === 0 ? null : known.reduce((sum, p) => sum + p.value!, 0);
}
/** A level at the end of the range: its last known value in it. */
function last(values: Map<string, number | null> | DatedValues | undefined, range: DayRange): number | null {
  const points = values instanceof Map ? [...values].map(([date, value]) => ({ date, value })) : (values ?? []);
  const known = points
    .filter((p) => p.date >= range.since && p.date <= range.until && typeof p.value === 'number')
    .sort((a, b) => a.date.localeCompare(b.date));
  return known.at(-1)?.value ?? null;
}

/**
 * `GET /analytics/{accountId}/summary`: followers (at the period's end), impressions and views, reach (platform
 * windows only), engagement, engagement rate (engagement / what the platform counts content shown by) and posts
 * published through the service, each against the previous period of the same length.
 */
export function analyticsSummary(
  services: Services,
  principal: Principal,
  accountId: string,
  query: { from?: string; to?: string },
): Promise<Summary> {
  const range = dayRange(query.from, query.to, ['from', 'to']);
  const previous = previousRange(range);
  const both: DayRange = { since: previous.since, until: range.until, days: range.days * 2 };
  return withInsights(services, principal, accountId, 'account', async (source, row) => {
    const { insights } = source;
    const shown = shownMetric(insights.metrics);
    const daily = await readFigures(
      source,
      [...new Set<AnalyticsMetric>(['impressions', 'views', ...(shown ? [shown] : []), 'engagement', ...followerMetric(source)])],
      'day',
      both.since,
      both.until,
    );
    // Each figure is missing for the reason the insights answer gives for its metric: one map decides both.
    const unsupported: Unsupported[] = [...daily.unsupported];
    const flow = (metric: AnalyticsMetric | null) =>
      metric ? compared(total(daily.series.get(metric), range), total(daily.series.get(metric), previous)) : compared(null, null);
    const [impressions, views, engagement, shownFigures] = [flow('impressions'), flow('views'), flow('engagement'), flow(shown)];
    const rate = (e: number | null, i: number | null) => (e === null || !i ? null : round(e / i));

    let followers = compared(null, null);
    if (insights.followerHistory === 'platform') {
      followers = compared(last(daily.series.get('followers'), range), last(daily.series.get('followers'), previous));
    } else if (insights.followerHistory === 'snapshots') {
      const { byDay } = await snapshotsOf(services.db, row.id, previous.since, range.until);
      followers = compared(last(byDay, range), last(byDay, previous));
    } else unsupported.push({ metric: 'followers', reason: `${row.platform} accounts have no followers.` });

    let reach = compared(null, null);
    const window = NATIVE_WINDOWS[range.days];
    if (!window) {
      unsupported.push({
        metric: 'reach',
        reason: `Reach counts distinct people: platforms compute it for 1, 7 and 28 days only, and days cannot be added up into a ${range.days}-day period.`,
      });
    } else {
      const figures = await readFigures(source, ['reach'], window, previous.until, range.until);
      const values = figures.series.get('reach');
      if (values) reach = compared(values.at(-1)?.value ?? null, values[0]?.value ?? null);
      unsupported.push(...figures.unsupported);
    }
    const posts = await postsPublished(services, row.id, insights.days.timeZone, range, previous);
    return {
      accountId: row.id,
      platform: row.platform as Summary['platform'],
      from: range.since,
      to: range.until,
      previousFrom: previous.since,
      previousTo: previous.until,
      timeZone: insights.days.timeZone,
      dayBoundary: insights.days.boundary,
      followers,
      impressions,
      views,
      reach,
      engagement,
      engagementRate: compared(rate(engagement.value, shownFigures.value), rate(engagement.previous, shownFigures.previous)),
      posts,
      unsupported,
      updatedAt: daily.updatedAt.toISOString(),
    };
  });
}

function followerMetric(source: FigureSource): AnalyticsMetric[] {
  return source.insights.followerHistory === 'platform' ? ['followers'] : [];
}

/** Posts the service published on the account in each period (by the platform's days), counted in one read. */
async function postsPublished(
  services: Services,
  accountId: string,
  timeZone: string,
  range: DayRange,
  previous: DayRange,
): Promise<Compared> {
  const zone = IANAZone.isValidZone(timeZone) ? timeZone : 'UTC';
  const bound = (day: string, after = 0) => DateTime.fromISO(day, { zone }).plus({ days: after }).toJSDate();
  const [start, middle, end] = [bound(previous.since), bound(range.since), bound(range.until, 1)];
  const { now, before } = await publishedBetween(services.db, accountId, [start, middle, end]);
  return compared(now, before);
}
