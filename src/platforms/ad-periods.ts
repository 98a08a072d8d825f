import { DateTime } from 'luxon';

/**
 * A named period's first and last day in a time zone, as the Marketing API computes its `date_preset`s (`last_7d`
 * ends yesterday; `maximum` is the 37 months the platforms keep): for a platform that takes dates only, and the
 * sandboxes.
 */
export function presetRange(preset: string, timeZone: string): { since: string; until: string } | null {
  const today = DateTime.now().setZone(timeZone).startOf('day');
  const iso = (at: DateTime) => at.toISODate()!;
  const last = (days: number) => ({ since: iso(today.minus({ days })), until: iso(today.minus({ days: 1 })) });
  const ranges: Record<string, { since: string; until: string }> = {
    today: { since: iso(today), until: iso(today) },
    yesterday: last(1),
    last_3d: last(3),
    last_7d: last(7),
    last_14d: last(14),
    last_28d: last(28),
    last_30d: last(30),
    last_90d: last(90),
    this_month: { since: iso(today.startOf('month')), until: iso(today) },
    last_month: { since: iso(today.minus({ months: 1 }).startOf('month')), until: iso(today.startOf('month').minus({ days: 1 })) },
    this_year: { since: iso(today.startOf('year')), until: iso(today) },
    maximum: { since: iso(today.minus({ months: 37 }).startOf('month')), until: iso(today) },
  };
  return ranges[preset] ?? null;
}
