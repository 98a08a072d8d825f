import { DateTime } from 'luxon';
import { ValidationFailedError } from '../../lib/errors.js';
import { DateRangeTooLongError } from './errors.js';

/** The longest period an analytics read covers, as the platforms allow. */
export const MAX_DAYS = 90;
const DEFAULT_DAYS = 28;

/** A period of whole days, both ends included (`YYYY-MM-DD`). */
export interface DayRange {
  since: string;
  until: string;
  days: number;
}

export const utcDay = (date: string) => DateTime.fromISO(date, { zone: 'utc' });
export const addDays = (date: string, days: number) => utcDay(date).plus({ days }).toISODate()!;
export const todayUtc = () => DateTime.utc().toISODate()!;

/** Every day of the range, oldest first. */
export function daysOf(range: { since: string; until: string }): string[] {
  const days: string[] = [];
  for (let at = range.since; at <= range.until; at = addDays(at, 1)) days.push(at);
  return days;
}

/**
 * The period asked for: `until` defaults to yesterday, `since` to 28 days before it; at most 90 days.
 * `names` are the query's own names of the two ends, for the errors.
 */
export function dayRange(since: string | undefined, until: string | undefined, names: [string, string]): DayRange {
  const last = until ?? addDays(todayUtc(), -1);
  const first = since ?? addDays(last, -(DEFAULT_DAYS - 1));
  const days = Math.round(utcDay(last).diff(utcDay(first), 'days').days) + 1;
  if (days < 1) throw new ValidationFailedError([{ path: `query/${names[1]}`, message: `must not be before ${names[0]}`, code: 'range' }]);
  if (days > MAX_DAYS) throw new DateRangeTooLongError(days, MAX_DAYS, `query/${names[1]}`);
  return { since: first, until: last, days };
}

/** The period of the same length just before. */
export function previousRange(range: DayRange): DayRange {
  return { since: addDays(range.since, -range.days), until: addDays(range.since, -1), days: range.days };
}
