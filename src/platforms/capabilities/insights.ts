import type { components } from '../../../generated/api.js';
import type { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';

export type AnalyticsMetric = components['schemas']['AnalyticsMetric'];
export type InsightsPeriod = components['schemas']['AnalyticsPeriod'];

/**
 * How a metric adds up over days: a `level` is a state at a moment (followers: a window takes its last value),
 * a `flow` counts events (views: a window is the sum of its days), a `unique` counts distinct people (reach: the
 * days' values overlap, so only the platform can give a window's value).
 */
export type MetricKind = 'level' | 'flow' | 'unique';

/** One of our metrics as a platform gives it. */
export interface MetricSource {
  /** The platform's own name (or names, added together: a profile's impressions from four surfaces). */
  platformMetrics: readonly string[];
  kind: MetricKind;
  /** The windows the platform computes itself; the others are aggregated from days by the metric's kind. */
  windows: readonly InsightsPeriod[];
  /** API versions it exists in: from `since` (included) to `before` (excluded), where the platform versions it. */
  versions?: { since?: string; before?: string };
}

/** A metric the platform had and no longer gives, or never gave though people expect it: why, for the answer. */
export interface MetricGone {
  unsupported: string;
  /** The metric of ours the platform gives in its place (views for impressions), where one does. */
  replacedBy?: AnalyticsMetric;
}

/** Our metric names → the platform's, kept as data: each platform's `insights-metrics.ts`. */
export type MetricMap = Partial<Record<AnalyticsMetric, MetricSource | MetricGone>>;

/** How the platform dates its values: the zone its days are in, and when a day begins and ends there. */
export interface DayBoundary {
  timeZone: string;
  boundary: string;
}

/** Values of one platform metric by date (`YYYY-MM-DD`); a day the platform gave no value for is `null`. */
export type DatedValues = Array<{ date: string; value: number | null }>;

export interface SeriesQuery {
  /** Platform metric names, at most `groupSize` of them. */
  metrics: readonly string[];
  /** A window of `windows` the metrics have natively. */
  period: InsightsPeriod;
  since: string;
  until: string;
}

export interface PostFigures {
  values: Map<string, number | null>;
  publishedAt: Date | null;
}

/**
 * Account and post figures. The area reads the metrics of `metrics` in groups of `groupSize` and drops a metric
 * the platform refuses (`refusesMetric`), remembering it per platform and API version.
 */
export interface Insights {
  readonly metrics: MetricMap;
  readonly postMetrics: MetricMap;
  /** The API version the calls are made at (the dead metrics are remembered per version). */
  readonly apiVersion: string;
  /** The scopes the account's figures (`account`) and its posts' (`post`) need, asked for at connect. */
  readonly scopes: { account: readonly string[]; post: readonly string[] };
  readonly days: DayBoundary;
  /** The longest range one read may cover, in days. */
  readonly maxDays: number;
  /** How many metrics go in one call: one dead metric makes the platform refuse the whole call. */
  readonly groupSize: number;
  /** Days the platform takes to settle a day's values: the days after `today - lagDays` are not asked. */
  readonly lagDays: number;
  /**
   * `platform`: followers come with the series (`followers`, `followers_gained`, `followers_lost`); `snapshots`: the
   * platform gives only a current count (`followersNow`), recorded daily by the service; `none`: no followers.
   */
  readonly followerHistory: 'platform' | 'snapshots' | 'none';
  /** Values for every day from `since` to `until` of each metric asked for (in `period`, one the metrics have natively). */
  series?(account: AdapterAccount, query: SeriesQuery): Promise<Map<string, DatedValues>>;
  /** Followers now, for the daily snapshot. */
  followersNow?(account: AdapterAccount): Promise<number | null>;
  /** Lifetime values of a post (platform metric names); unknown posts raise `PostNotFound`. Absent: posts have no figures. */
  post?(account: AdapterAccount, platformPostId: string, metrics: readonly string[]): Promise<PostFigures>;
  /** Whether the failure is the platform refusing a metric it does not have (Graph error 100 "invalid metric"). */
  refusesMetric(error: PlatformError): boolean;
}

export function isGone(source: MetricSource | MetricGone | undefined): source is MetricGone {
  return source !== undefined && 'unsupported' in source;
}

/** The metric that counts times content was shown on the platform: impressions, or what the map says replaced them. */
export function shownMetric(map: MetricMap): AnalyticsMetric | null {
  const impressions = map.impressions;
  if (!impressions) return null;
  return isGone(impressions) ? (impressions.replacedBy ?? null) : 'impressions';
}

/** Whether the metric exists at `version` (`v25.0`, compared by number). */
export function existsIn(source: MetricSource, version: string): boolean {
  const number = (v: string) => Number.parseFloat(v.replace(/^v/, ''));
  const at = number(version);
  return (
    (!source.versions?.since || at >= number(source.versions.since)) && (!source.versions?.before || at < number(source.versions.before))
  );
}
