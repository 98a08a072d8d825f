import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { DateTime } from 'luxon';
import { dailyFigure, daysBetween, sandboxToday } from '../insights-series.js';

const DAILY_METRICS = [
  'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
  'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
  'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
  'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
  'BUSINESS_CONVERSATIONS',
  'BUSINESS_DIRECTION_REQUESTS',
  'CALL_CLICKS',
  'WEBSITE_CLICKS',
  'BUSINESS_BOOKINGS',
  'BUSINESS_FOOD_ORDERS',
  'BUSINESS_FOOD_MENU_CLICKS',
];
/** The performance figures settle about three days late: the latest days come without a value. */
const LAG_DAYS = 3;

const camel = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

type Authorised = (ctx: RouterContext, scope: string) => boolean;
type ApiError = (ctx: RouterContext, code: number, status: string, message: string) => void;

/**
 * Business Profile Performance `GET /v1/locations/{l}:fetchMultiDailyMetricsTimeSeries`: the figures of
 * `insights-series.ts` for each day of `dailyRange`, int64 values as strings, the last three days without a
 * value; an unknown `dailyMetrics` or a backwards range is a 400 INVALID_ARGUMENT.
 */
export function mountPerformance(router: Router, authorised: Authorised, apiError: ApiError, scope: string): void {
  router.get('/search_suite/performance/v1/locations/:call', (ctx) => {
    const [locationId, method] = ctx.params.call!.split(':');
    if (method !== 'fetchMultiDailyMetricsTimeSeries') return apiError(ctx, 404, 'NOT_FOUND', 'Method not found.');
    if (!authorised(ctx, scope)) return;
    const query = new URLSearchParams(ctx.querystring);
    const metrics = query.getAll('dailyMetrics');
    const unknown = metrics.find((metric) => !DAILY_METRICS.includes(metric));
    if (metrics.length === 0 || unknown)
      return apiError(
        ctx,
        400,
        'INVALID_ARGUMENT',
        `Invalid value at 'daily_metrics' (type.googleapis.com/google.type.DailyMetric), "${unknown ?? ''}"`,
      );
    // A member is named by its proto name or its JSON name (`start_date` or `startDate`), as Google takes both.
    const date = (end: 'start_date' | 'end_date') => {
      const part = (unit: string) => Number(query.get(`dailyRange.${end}.${unit}`) ?? query.get(`dailyRange.${camel(end)}.${unit}`));
      return DateTime.fromObject({ year: part('year'), month: part('month'), day: part('day') }, { zone: 'utc' });
    };
    const start = date('start_date');
    const end = date('end_date');
    if (!start.isValid || !end.isValid || end < start)
      return apiError(ctx, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument: dailyRange.');
    const settled = DateTime.fromISO(sandboxToday(), { zone: 'utc' }).minus({ days: LAG_DAYS }).toISODate()!;
    const location = `locations/${locationId}`;
    ctx.body = {
      multiDailyMetricTimeSeries: [
        {
          dailyMetricTimeSeries: metrics.map((metric) => ({
            dailyMetric: metric,
            timeSeries: {
              datedValues: daysBetween(start.toISODate()!, end.toISODate()!).map((day) => {
                const [year, month, dayOfMonth] = day.split('-').map(Number);
                return {
                  date: { year, month, day: dayOfMonth },
                  ...(day <= settled ? { value: String(dailyFigure(location, metric, day)) } : {}),
                };
              }),
            },
          })),
        },
      ],
    };
  });
}
