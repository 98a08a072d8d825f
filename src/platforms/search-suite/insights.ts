import type { PlatformError } from '../errors.js';
import type { DatedValues, Insights, SeriesQuery } from '../capabilities/insights.js';
import type { AdapterAccount } from '../types.js';
import { BUSINESS_SCOPE, google } from './client.js';
import { LOCAL_POST_METRICS, LOCATION_METRICS } from './insights-metrics.js';

interface DatedValue {
  date?: { year?: number; month?: number; day?: number };
  /** int64 as a string; absent where the location has no value for the day. */
  value?: string;
}
interface MultiDailyAnswer {
  multiDailyMetricTimeSeries?: Array<{
    dailyMetricTimeSeries?: Array<{ dailyMetric?: string; timeSeries?: { datedValues?: DatedValue[] } }>;
  }>;
}

const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');

/**
 * Business Profile Performance (`locations/{l}:fetchMultiDailyMetricsTimeSeries`): daily values per metric over
 * a date range, dated by the location's own day, settled about three days late. Local posts have no insights.
 */
export class SearchSuiteInsights implements Insights {
  readonly metrics = LOCATION_METRICS;
  readonly postMetrics = LOCAL_POST_METRICS;
  readonly scopes = { account: [BUSINESS_SCOPE], post: [BUSINESS_SCOPE] };
  readonly days = { timeZone: 'location', boundary: "Days are the location's own local days, as Business Profile dates them." };
  readonly apiVersion = 'v1';
  readonly maxDays = 90;
  readonly groupSize = 8;
  readonly lagDays = 3;
  readonly followerHistory = 'none' as const;

  constructor(private readonly performanceApiUrl: string) {}

  async series(account: AdapterAccount, query: SeriesQuery): Promise<Map<string, DatedValues>> {
    const location = account.platformAccountId.split('/').slice(2).join('/');
    const [sy, sm, sd] = query.since.split('-').map(Number);
    const [uy, um, ud] = query.until.split('-').map(Number);
    const params = new URLSearchParams([
      ...query.metrics.map((metric) => ['dailyMetrics', metric]),
      ['dailyRange.start_date.year', String(sy)],
      ['dailyRange.start_date.month', String(sm)],
      ['dailyRange.start_date.day', String(sd)],
      ['dailyRange.end_date.year', String(uy)],
      ['dailyRange.end_date.month', String(um)],
      ['dailyRange.end_date.day', String(ud)],
    ]);
    const answer = await google<MultiDailyAnswer>(
      `${this.performanceApiUrl}/v1/${location}:fetchMultiDailyMetricsTimeSeries?${params}`,
      account.credentials.accessToken,
    );
    const series = new Map<string, DatedValues>();
    for (const group of answer.multiDailyMetricTimeSeries ?? [])
      for (const metric of group.dailyMetricTimeSeries ?? []) {
        series.set(
          metric.dailyMetric ?? '',
          (metric.timeSeries?.datedValues ?? []).map((point) => ({
            date: `${point.date?.year}-${pad(point.date?.month)}-${pad(point.date?.day)}`,
            value: point.value === undefined ? null : Number(point.value),
          })),
        );
      }
    return series;
  }

  /** An unknown `dailyMetrics` value is a 400 INVALID_ARGUMENT naming the enum. */
  refusesMetric(error: PlatformError): boolean {
    return error.details.status === 400 && /dailyMetric/i.test(error.message);
  }
}
