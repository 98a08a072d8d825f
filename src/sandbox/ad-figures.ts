import { createHash } from 'node:crypto';
import { DateTime } from 'luxon';
import { dailyFigure, daysBetween } from './insights-series.js';

/**
 * The ad sandboxes' delivery figures: an ad's day is a function of its id and the date alone (as the page figures
 * of `insights-series.ts`), so a test can compute what the platform answers; an ad set, campaign or ad account
 * adds up its ads. Money is in minor units here; each sandbox writes it as its platform does.
 */
export interface AdDay {
  impressions: number;
  clicks: number;
  /** Minor units. */
  spend: number;
  linkClicks: number;
  engagements: number;
  purchases: number;
}

/** One ad's figures on one day. */
export function adDay(adId: string, date: string): AdDay {
  const impressions = 1000 + dailyFigure(adId, 'ad_impressions', date) * 10;
  const clicks = 10 + (dailyFigure(adId, 'ad_clicks', date) % 300);
  return {
    impressions,
    clicks,
    spend: dailyFigure(adId, 'ad_spend', date) * 5,
    linkClicks: Math.floor(clicks * 0.8),
    engagements: clicks + (dailyFigure(adId, 'ad_engagements', date) % 50),
    purchases: dailyFigure(adId, 'ad_purchases', date) % 20,
  };
}

/** Figures of several ads or days added up. */
export function addDays(days: AdDay[]): AdDay {
  const sum: AdDay = { impressions: 0, clicks: 0, spend: 0, linkClicks: 0, engagements: 0, purchases: 0 };
  for (const day of days) for (const key of Object.keys(sum) as Array<keyof AdDay>) sum[key] += day[key];
  return sum;
}

/** Distinct people reached: most of a day's impressions, fewer of a longer bucket's (people come back). */
export function reachOf(figures: AdDay, days: number): number {
  return Math.floor(figures.impressions * (days > 1 ? 0.6 : 0.7));
}

/** The values each breakdown splits rows into, as the Marketing API names them. */
export const BREAKDOWN_VALUES: Record<string, readonly string[]> = {
  age: ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'],
  gender: ['female', 'male', 'unknown'],
  country: ['DE', 'AT', 'CH'],
  region: ['Berlin', 'Hamburg', 'Bavaria'],
  publisher_platform: ['facebook', 'instagram'],
  platform_position: ['feed', 'story', 'reels'],
  device_platform: ['mobile_app', 'desktop'],
  impression_device: ['iphone', 'android_smartphone', 'desktop'],
  frequency_value: ['1', '2', '3', '4', '5', '6-10', '11-20', '21+'],
  hourly_stats_aggregated_by_advertiser_time_zone: Array.from({ length: 24 }, (_, h) => {
    const hour = String(h).padStart(2, '0');
    return `${hour}:00:00 - ${hour}:59:59`;
  }),
};

/**
 * Every combination of the breakdowns' values (the Marketing API's, unless a platform gives its own), each with its
 * share of the figures (shares of one row add up to 1).
 */
export function breakdownCells(
  breakdowns: readonly string[],
  seed: string,
  values: Record<string, readonly string[]> = BREAKDOWN_VALUES,
): Array<{ values: Record<string, string>; share: number }> {
  let cells: Array<Record<string, string>> = [{}];
  for (const name of breakdowns) cells = cells.flatMap((cell) => (values[name] ?? []).map((value) => ({ ...cell, [name]: value })));
  const weights = cells.map(
    (cell) =>
      1 +
      (createHash('sha256')
        .update(`${seed}|${JSON.stringify(cell)}`)
        .digest()
        .readUInt8(0) %
        9),
  );
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return cells.map((values, i) => ({ values, share: weights[i]! / total }));
}

/** A share of figures (a breakdown's cell), rounded down. */
export function shareOf(figures: AdDay, share: number): AdDay {
  return Object.fromEntries(Object.entries(figures).map(([key, value]) => [key, Math.floor(value * share)])) as unknown as AdDay;
}

export type Increment = 'day' | 'week' | 'month' | 'all';

/** The buckets of a period: days, 7-day chunks from its start, calendar months (clipped to it), or the whole of it. */
export function buckets(since: string, until: string, increment: Increment): Array<{ start: string; stop: string; days: string[] }> {
  const days = daysBetween(since, until);
  if (increment === 'all') return [{ start: since, stop: until, days }];
  const groups = new Map<string, string[]>();
  days.forEach((day, i) => {
    const key =
      increment === 'day'
        ? day
        : increment === 'week'
          ? String(Math.floor(i / 7))
          : DateTime.fromISO(day, { zone: 'utc' }).toFormat('yyyy-MM');
    groups.set(key, [...(groups.get(key) ?? []), day]);
  });
  return [...groups.values()].map((group) => ({ start: group[0]!, stop: group[group.length - 1]!, days: group }));
}
