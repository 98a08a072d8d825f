import { UnprocessableError } from '../../lib/errors.js';

/** 422 `date_range_too_long`: analytics periods are at most 90 days, as the platforms allow. */
export class DateRangeTooLongError extends UnprocessableError {
  constructor(days: number, max: number, path: string) {
    super('date_range_too_long', 'Date range too long', `The period has ${days} days; at most ${max} are allowed.`, [
      { path, message: `the period has ${days} days; at most ${max} are allowed`, code: 'date_range_too_long' },
    ]);
  }
}

/** 422 `metric_not_supported`: metrics the account's platform has never given; `detail` lists those it gives. */
export class MetricNotSupportedError extends UnprocessableError {
  constructor(platform: string, asked: Array<{ metric: string; index: number }>, given: string[], what = '') {
    super(
      'metric_not_supported',
      'Metric not supported',
      `${platform} does not give ${asked.map((a) => a.metric).join(', ')}${what}; it gives ${given.join(', ')}.`,
      asked.map(({ metric, index }) => ({
        path: `query/metrics/${index}`,
        message: `${platform} does not give ${metric}${what}.`,
        code: 'metric_not_supported',
      })),
    );
  }
}
