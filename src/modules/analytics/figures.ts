import type { Knex } from 'knex';
import {
  type AnalyticsMetric,
  type DatedValues,
  existsIn,
  type Insights,
  type InsightsPeriod,
  isGone,
  type MetricSource,
} from '../../platforms/capabilities/insights.js';
import { PlatformError } from '../../platforms/errors.js';
import type { AdapterAccount } from '../../platforms/types.js';
import { type Cached, readCached, TTL_SECONDS, writeCached } from './cache.js';
import { deadMetrics, rememberDeadMetric } from './dead-metrics.js';
import { addDays, daysOf, todayUtc } from './period.js';
import { unlessThrottled } from './throttle.js';

const WINDOW_DAYS: Record<InsightsPeriod, number> = { day: 1, week: 7, days_28: 28 };

/** The account whose figures are read, and the platform's insights. */
export interface FigureSource {
  db: Knex;
  accountId: string;
  platform: string;
  account: AdapterAccount;
  insights: Insights;
}

export interface Unsupported {
  metric: AnalyticsMetric;
  reason: string;
}

export interface Figures {
  /** One value per day of the range (the window ending that day), `null` where the platform has none (yet). */
  series: Map<AnalyticsMetric, DatedValues>;
  unsupported: Unsupported[];
  /** When the oldest of the figures was read from the platform (now, for a cold read). */
  updatedAt: Date;
}

/** What one platform metric is read as: natively in `period`, over days from `since` to `until`. */
interface Read {
  platformMetric: string;
  period: InsightsPeriod;
  since: string;
  until: string;
}
const keyOf = (read: Read) => `series:${read.platformMetric}:${read.period}:${read.since}:${read.until}`;

/** How one of our metrics is had: the reads it needs and how its windows come of them, or why it cannot be had. */
type Plan = { metric: AnalyticsMetric; source: MetricSource; reads: Read[]; aggregate: boolean } | Unsupported;

function plan(
  source: FigureSource,
  metric: AnalyticsMetric,
  period: InsightsPeriod,
  since: string,
  until: string,
  dead: Map<string, { refusal: string; foundAt: Date }>,
): Plan {
  const { insights, platform } = source;
  const entry = insights.metrics[metric];
  if (!entry) return { metric, reason: `${platform} does not give ${metric}.` };
  if (isGone(entry)) return { metric, reason: entry.unsupported };
  if (!existsIn(entry, insights.apiVersion))
    return {
      metric,
      reason: `${platform} gives ${metric} (${entry.platformMetrics.join(', ')}) in other API versions than ${insights.apiVersion}.`,
    };
  const refused = entry.platformMetrics.find((name) => dead.has(name));
  if (refused) {
    const at = dead.get(refused)!;
    return {
      metric,
      reason: `${platform} refused ${refused} as an invalid metric at API ${insights.apiVersion} (first on ${at.foundAt.toISOString().slice(0, 10)}: ${at.refusal}).`,
    };
  }
  if (entry.windows.includes(period)) {
    return {
      metric,
      source: entry,
      aggregate: false,
      reads: entry.platformMetrics.map((platformMetric) => ({ platformMetric, period, since, until })),
    };
  }
  if (entry.kind === 'unique')
    return {
      metric,
      reason: `${platform} gives ${metric} for ${entry.windows.join(', ') || 'no'} windows only, and distinct people cannot be added up from days into a ${period} window.`,
    };
  if (!entry.windows.includes('day')) return { metric, reason: `${platform} gives ${metric} in no window the service can add up from.` };
  const from = addDays(since, -(WINDOW_DAYS[period] - 1));
  return {
    metric,
    source: entry,
    aggregate: true,
    reads: entry.platformMetrics.map((platformMetric) => ({ platformMetric, period: 'day' as const, since: from, until })),
  };
}

/**
 * Our metrics over days `since`..`until`, each a value per day of the window `period` ending that day: read from
 * the cache or the platform (in groups of the platform's size; a metric refused as invalid is dropped, remembered
 * and named unsupported, and the rest are answered), windows the platform lacks added up by the metric's kind.
 * Days after the platform's data lag are `null`, never asked.
 */
export async function readFigures(
  source: FigureSource,
  metrics: readonly AnalyticsMetric[],
  period: InsightsPeriod,
  since: string,
  until: string,
): Promise<Figures> {
  const { insights } = source;
  const dead = await deadMetrics(source.db, source.platform, insights.apiVersion);
  const settled = addDays(todayUtc(), -insights.lagDays);
  const lastAsked = until < settled ? until : settled;
  const plans = metrics.map((metric) => plan(source, metric, period, since, lastAsked, dead));
  const unsupported = plans.filter((p): p is Unsupported => 'reason' in p);
  const planned = plans.filter((p): p is Exclude<Plan, Unsupported> => !('reason' in p));
  const reads = new Map<string, Read>();
  for (const p of planned) for (const read of p.reads) if (read.since <= read.until) reads.set(keyOf(read), read);

  const cached = await readCached<DatedValues>(source.db, source.accountId, [...reads.keys()]);
  const missing = [...reads.entries()].filter(([key]) => !cached.has(key));
  const fresh =
    missing.length === 0
      ? { values: new Map<string, DatedValues>(), refused: new Map<string, string>() }
      : await unlessThrottled(source.db, source.accountId, () =>
          readFromPlatform(
            source,
            missing.map(([, read]) => read),
          ),
        );
  const now = new Date();
  await writeCached(
    source.db,
    source.accountId,
    [...fresh.values.entries()].map(([key, figures]) => ({ key, figures, ttlSeconds: TTL_SECONDS[reads.get(key)!.period] })),
    now,
  );
  const values = new Map<string, DatedValues>([...[...cached].map(([key, c]): [string, DatedValues] => [key, c.figures]), ...fresh.values]);

  const series = new Map<AnalyticsMetric, DatedValues>();
  for (const p of planned) {
    const refused = p.source.platformMetrics.find((name) => fresh.refused.has(name));
    if (refused) {
      unsupported.push({
        metric: p.metric,
        reason: `${source.platform} refused ${refused} as an invalid metric at API ${insights.apiVersion}: ${fresh.refused.get(refused)}`,
      });
      continue;
    }
    const perDay = addUp(p.reads.map((read) => byDate(values.get(keyOf(read)) ?? [])));
    series.set(
      p.metric,
      daysOf({ since, until }).map((date) => ({
        date,
        value:
          date > lastAsked
            ? null
            : p.aggregate
              ? windowValue(perDay, p.source.kind, date, WINDOW_DAYS[period])
              : (perDay.get(date) ?? null),
      })),
    );
  }
  const oldest = [...cached.values()].reduce<Cached<unknown> | null>((o, c) => (!o || c.updatedAt < o.updatedAt ? c : o), null);
  return { series, unsupported, updatedAt: oldest?.updatedAt ?? now };
}

const byDate = (values: DatedValues) => new Map(values.map((point) => [point.date, point.value]));

/** Platform metrics that make one of ours (a profile's impressions of four surfaces) added up day by day. */
function addUp(parts: Array<Map<string, number | null>>): Map<string, number | null> {
  if (parts.length === 1) return parts[0]!;
  const total = new Map<string, number | null>();
  for (const date of new Set(parts.flatMap((part) => [...part.keys()]))) {
    const known = parts.map((part) => part.get(date)).filter((value): value is number => typeof value === 'number');
    total.set(date, known.length === parts.length ? known.reduce((sum, value) => sum + value, 0) : null);
  }
  return total;
}

/** A window ending on `date` from its days: a level's last value, a flow's sum; unknown when a day of it is. */
function windowValue(perDay: Map<string, number | null>, kind: MetricSource['kind'], date: string, days: number): number | null {
  if (kind === 'level') return perDay.get(date) ?? null;
  let sum = 0;
  for (let back = 0; back < days; back++) {
    const value = perDay.get(addDays(date, -back));
    if (typeof value !== 'number') return null;
    sum += value;
  }
  return sum;
}

/**
 * Reads from the platform in groups of the same window and range, `groupSize` at a time. A group the platform
 * refuses for an invalid metric is halved until the metric is found: it is remembered (per platform and API
 * version) and left out, and the others are read.
 */
async function readFromPlatform(source: FigureSource, reads: Read[]) {
  const values = new Map<string, DatedValues>();
  const refused = new Map<string, string>();
  const groups = new Map<string, Read[]>();
  for (const read of reads) {
    const key = `${read.period}:${read.since}:${read.until}`;
    groups.set(key, [...(groups.get(key) ?? []), read]);
  }
  const readGroup = async (group: Read[]): Promise<void> => {
    const [{ period, since, until }] = group as [Read];
    try {
      const answer = await source.insights.series!(source.account, { metrics: group.map((r) => r.platformMetric), period, since, until });
      for (const read of group) values.set(keyOf(read), answer.get(read.platformMetric) ?? []);
    } catch (error) {
      if (!(error instanceof PlatformError) || !source.insights.refusesMetric(error)) throw error;
      if (group.length === 1) {
        refused.set(group[0]!.platformMetric, error.message);
        await rememberDeadMetric(source.db, source.platform, source.insights.apiVersion, group[0]!.platformMetric, error.message);
        return;
      }
      const half = Math.ceil(group.length / 2);
      await readGroup(group.slice(0, half));
      await readGroup(group.slice(half));
    }
  };
  for (const group of groups.values())
    for (let start = 0; start < group.length; start += source.insights.groupSize)
      await readGroup(group.slice(start, start + source.insights.groupSize));
  return { values, refused };
}
