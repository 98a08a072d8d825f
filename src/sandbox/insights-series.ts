import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';

/**
 * The sandboxes' figures: every account's day of every metric is a function of the account, the metric and the
 * date alone, so a test can say exactly what the platform answers. Flows and uniques vary between 100 and 999
 * a day; a window's unique count is 70 % of its days' sum (people come back), rounded down.
 */
export function dailyFigure(accountId: string, metric: string, date: string): number {
  const digest = createHash('sha256').update(`${accountId}|${metric}|${date}`).digest();
  return 100 + (digest.readUInt32BE(0) % 900);
}

/** Followers at the end of `date`: a base of the account's own, two more each day since 2026-01-01. */
export function followersOn(accountId: string, date: string): number {
  const base = 5000 + (createHash('sha256').update(accountId).digest().readUInt16BE(0) % 1000);
  return base + 2 * Math.round(DateTime.fromISO(date, { zone: 'utc' }).diff(DateTime.fromISO('2026-01-01', { zone: 'utc' }), 'days').days);
}

/** Days in a window ending on a day. */
export const WINDOW_DAYS: Record<string, number> = { day: 1, week: 7, days_28: 28 };

/** A window's value ending on `date`: flows add their days up, uniques overlap (70 % of the sum). */
export function windowFigure(accountId: string, metric: string, date: string, days: number, unique: boolean): number {
  let sum = 0;
  const end = DateTime.fromISO(date, { zone: 'utc' });
  for (let back = 0; back < days; back++) sum += dailyFigure(accountId, metric, end.minus({ days: back }).toISODate()!);
  return unique && days > 1 ? Math.floor(sum * 0.7) : sum;
}

/** Every day from `since` to `until`, both included (`YYYY-MM-DD`). */
export function daysBetween(since: string, until: string): string[] {
  const days: string[] = [];
  for (let at = DateTime.fromISO(since, { zone: 'utc' }); at.toISODate()! <= until; at = at.plus({ days: 1 })) days.push(at.toISODate()!);
  return days;
}

/** The sandbox's today (UTC), the last day a platform could have figures for. */
export const sandboxToday = () => DateTime.utc().toISODate()!;
