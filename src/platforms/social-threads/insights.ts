import { DateTime } from 'luxon';
import type { PlatformError } from '../errors.js';
import type { DatedValues, Insights, PostFigures, SeriesQuery } from '../capabilities/insights.js';
import { PostNotFound } from '../capabilities/publishing.js';
import type { AdapterAccount } from '../types.js';
import type { SocialThreadsClient } from './client.js';
import { MEDIA_METRICS, USER_METRICS } from './insights-metrics.js';

interface ThreadsInsight {
  name: string;
  values?: Array<{ value?: number; end_time?: string }>;
  total_value?: { value?: number };
}

const day = (date: string) => DateTime.fromISO(date, { zone: 'utc' });

/**
 * `GET /{user-id}/threads_insights?metric&since&until` (unix seconds, UTC days): `views` answers one value per
 * day; the other metrics one total over the range, so their days are read one range (one day) at a time.
 */
export class SocialThreadsInsights implements Insights {
  readonly metrics = USER_METRICS;
  readonly postMetrics = MEDIA_METRICS;
  readonly scopes = { account: ['threads_manage_insights'], post: ['threads_manage_insights'] };
  readonly days = { timeZone: 'UTC', boundary: 'Days run from midnight to midnight UTC (the API takes since/until as unix times).' };
  readonly maxDays = 90;
  readonly groupSize = 4;
  readonly lagDays = 1;
  readonly followerHistory = 'snapshots' as const;
  constructor(
    private readonly client: SocialThreadsClient,
    readonly apiVersion: string,
  ) {}

  private read(account: AdapterAccount, metrics: readonly string[], since: DateTime, until: DateTime) {
    return this.client.call<{ data: ThreadsInsight[] }>(
      account.credentials.accessToken,
      'GET',
      `${account.platformAccountId}/threads_insights`,
      {
        metric: metrics.join(','),
        since: String(since.toUnixInteger()),
        until: String(until.toUnixInteger()),
      },
    );
  }

  async series(account: AdapterAccount, query: SeriesQuery): Promise<Map<string, DatedValues>> {
    const series = new Map<string, DatedValues>(query.metrics.map((metric) => [metric, []]));
    const daily = query.metrics.filter((metric) => metric === 'views');
    const totals = query.metrics.filter((metric) => metric !== 'views');
    if (daily.length > 0) {
      const answer = await this.read(account, daily, day(query.since), day(query.until).plus({ days: 1 }));
      for (const insight of answer.data)
        series.set(
          insight.name,
          (insight.values ?? []).map((point) => ({
            date: DateTime.fromISO(point.end_time!, { zone: 'utc' }).minus({ days: 1 }).toISODate()!,
            value: point.value ?? null,
          })),
        );
    }
    if (totals.length > 0) {
      for (let at = day(query.since); at <= day(query.until); at = at.plus({ days: 1 })) {
        const answer = await this.read(account, totals, at, at.plus({ days: 1 }));
        for (const insight of answer.data)
          series.get(insight.name)?.push({ date: at.toISODate()!, value: insight.total_value?.value ?? null });
      }
    }
    return series;
  }

  async followersNow(account: AdapterAccount): Promise<number | null> {
    const now = DateTime.utc().startOf('day');
    const answer = await this.read(account, ['followers_count'], now.minus({ days: 1 }), now);
    return answer.data.find((insight) => insight.name === 'followers_count')?.total_value?.value ?? null;
  }

  async post(account: AdapterAccount, platformPostId: string, metrics: readonly string[]): Promise<PostFigures> {
    try {
      const answer = await this.client.call<{ data: ThreadsInsight[] }>(
        account.credentials.accessToken,
        'GET',
        `${platformPostId}/insights`,
        {
          metric: metrics.join(','),
        },
      );
      return {
        values: new Map(answer.data.map((insight) => [insight.name, insight.values?.[0]?.value ?? insight.total_value?.value ?? null])),
        publishedAt: null,
      };
    } catch (error) {
      if ((error as PlatformError).details?.platformCode === 100 && !this.refusesMetric(error as PlatformError))
        throw new PostNotFound(platformPostId, (error as PlatformError).details);
      throw error;
    }
  }

  refusesMetric(error: PlatformError): boolean {
    return error.details.platformCode === 100 && /valid insights metric/i.test(error.message);
  }
}
