import { ApiError } from '../../lib/errors.js';
import type { Metric } from './counters.js';

/** 402 `plan_limit_reached`: the operation would take a quota of the owner's plan past its hard limit. */
export class PlanLimitReachedError extends ApiError {
  constructor(metric: Metric, limit: number, resetsAt: Date | null) {
    const when = resetsAt ? ` until the period ends at ${resetsAt.toISOString()}` : '';
    super(
      402,
      'plan_limit_reached',
      'Plan limit reached',
      `The plan allows ${limit} ${metric}${resetsAt ? ' per month' : ''}; this would exceed it${when}. A larger plan raises the limit.`,
    );
  }
}

/** 422 `period_out_of_range`: usage of a month that has not begun. */
export class PeriodOutOfRangeError extends ApiError {
  constructor(period: string) {
    super(422, 'period_out_of_range', 'Period out of range', `${period} is after the current month.`);
  }
}
