import { DateTime } from 'luxon';
import { PlatformError } from '../errors.js';
import type { DatedValues, Insights, PostFigures, SeriesQuery } from '../capabilities/insights.js';
import { PostNotFound } from '../capabilities/publishing.js';
import type { AdapterAccount } from '../types.js';
import type { SocialNetworkClient } from './client.js';
import { PAGE_METRICS, POST_FIELDS, POST_METRICS, type PostCounts } from './insights-metrics.js';

const PACIFIC = 'America/Los_Angeles';

interface GraphInsight {
  name: string;
  period: string;
  values: Array<{ value?: number | Record<string, number> | null; end_time?: string }>;
}

/** A value as the Graph gives it: a number, or counts by type (reactions by type) added up. */
function numberOf(value: GraphInsight['values'][number]['value']): number | null {
  if (typeof value === 'number') return value;
  if (value && typeof value === 'object') return Object.values(value).reduce((sum, count) => sum + (Number(count) || 0), 0);
  return null;
}

/**
 * Page insights (`GET /{page-id}/insights`) and post insights (`GET /{post-id}/insights`) with the page token.
 * The Graph dates a value by its `end_time`, midnight Pacific at the end of the day (or window) it covers.
 */
export class SocialNetworkInsights implements Insights {
  readonly metrics = PAGE_METRICS;
  readonly postMetrics = POST_METRICS;
  /** The grant's permission to read insights (the page token also needs the ANALYZE task, which the platform checks). */
  readonly scopes = { account: ['read_insights'], post: ['read_insights'] };
  readonly days = {
    timeZone: PACIFIC,
    boundary: 'Days run from midnight to midnight Pacific time: the Graph dates each value by the end of its day or window.',
  };
  readonly maxDays = 90;
  readonly groupSize = 5;
  readonly lagDays = 1;
  readonly followerHistory = 'platform' as const;
  constructor(
    private readonly client: SocialNetworkClient,
    readonly apiVersion: string,
  ) {}

  async series(account: AdapterAccount, query: SeriesQuery): Promise<Map<string, DatedValues>> {
    const answer = await this.client.call<{ data: GraphInsight[] }>('GET', `${account.platformAccountId}/insights`, {
      token: account.credentials.accessToken,
      query: {
        metric: query.metrics.join(','),
        period: query.period,
        since: query.since,
        until: DateTime.fromISO(query.until, { zone: 'utc' }).plus({ days: 1 }).toISODate()!,
      },
    });
    const series = new Map<string, DatedValues>();
    for (const insight of answer.data) {
      const values = insight.values
        .filter((point) => point.end_time)
        .map((point) => ({
          date: DateTime.fromISO(point.end_time!, { setZone: true }).setZone(PACIFIC).minus({ days: 1 }).toISODate()!,
          value: numberOf(point.value),
        }));
      series.set(insight.name, values);
    }
    return series;
  }

  async post(account: AdapterAccount, platformPostId: string, metrics: readonly string[]): Promise<PostFigures> {
    if (!platformPostId.startsWith(`${account.platformAccountId}_`)) throw new PostNotFound(platformPostId);
    const token = account.credentials.accessToken;
    const counted = metrics.filter((name) => name in POST_FIELDS);
    const insights = metrics.filter((name) => !(name in POST_FIELDS));
    try {
      const [answer, post] = await Promise.all([
        insights.length === 0
          ? { data: [] }
          : this.client.call<{ data: GraphInsight[] }>('GET', `${platformPostId}/insights`, {
              token,
              query: { metric: insights.join(','), period: 'lifetime' },
            }),
        counted.length === 0
          ? {}
          : this.client.call<PostCounts>('GET', platformPostId, {
              token,
              query: { fields: counted.map((name) => POST_FIELDS[name]!.field).join(',') },
            }),
      ]);
      const values = new Map(answer.data.map((insight) => [insight.name, numberOf(insight.values[0]?.value)]));
      for (const name of counted) values.set(name, POST_FIELDS[name]!.read(post));
      return { values, publishedAt: null };
    } catch (error) {
      if (error instanceof PlatformError && error.details.platformCode === 100 && !this.refusesMetric(error))
        throw new PostNotFound(platformPostId, error.details);
      throw error;
    }
  }

  /** `(#100) The value must be a valid insights metric`: one name of the call is not (or no longer) a metric. */
  refusesMetric(error: PlatformError): boolean {
    return error.details.platformCode === 100 && /valid insights metric/i.test(error.message);
  }
}
