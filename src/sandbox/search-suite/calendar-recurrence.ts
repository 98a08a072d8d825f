import { DateTime } from 'luxon';
import { RRule, RRuleSet } from '../../lib/rrule.js';

/**
 * Expands a series' RFC 5545 lines the way the platform does: in the event's own zone, so that 09:00 stays
 * 09:00 across a daylight-saving change. `rrule` counts in "floating" time (wall-clock values written as UTC),
 * so wall times go in and come back out through that convention.
 */
// The same wall time in UTC (not `Date.UTC`, which reads years 0–99 as 1900–1999).
const floating = (wall: DateTime) => wall.set({ millisecond: 0 }).setZone('utc', { keepLocalTime: true }).toJSDate();
const wallOf = (date: Date, zone: string) =>
  DateTime.fromObject(
    {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
    },
    { zone },
  );

/** An RDATE/EXDATE value as a wall time in `zone`. */
function dateValue(value: string, params: Map<string, string>, zone: string): DateTime {
  if (params.get('VALUE') === 'DATE' || /^\d{8}$/.test(value)) return DateTime.fromFormat(value, 'yyyyMMdd', { zone });
  if (value.endsWith('Z')) return DateTime.fromFormat(value, "yyyyMMdd'T'HHmmss'Z'", { zone: 'UTC' }).setZone(zone);
  return DateTime.fromFormat(value, "yyyyMMdd'T'HHmmss", { zone: params.get('TZID') ?? zone }).setZone(zone);
}

/** Thrown for a line the platform would refuse ("Invalid recurrence rule."). */
export class InvalidRecurrence extends Error {}

export function ruleSet(lines: string[], start: DateTime): RRuleSet {
  const set = new RRuleSet();
  const dtstart = floating(start);
  for (const line of lines) {
    const match = /^(RRULE|EXRULE|RDATE|EXDATE)((?:;[A-Z-]+=[^:;]+)*):(.+)$/.exec(line);
    if (!match) throw new InvalidRecurrence(line);
    const [, name, rawParams, value] = match as unknown as [string, string, string, string];
    const params = new Map(
      rawParams
        .split(';')
        .filter(Boolean)
        .map((param) => param.split('=') as [string, string]),
    );
    if (name === 'RRULE' || name === 'EXRULE') {
      let rule: RRule;
      try {
        const options = RRule.parseString(value);
        if (options.freq === undefined || options.freq === null) throw new InvalidRecurrence(line);
        if (options.until) options.until = floating(DateTime.fromJSDate(options.until).setZone(start.zone));
        rule = new RRule({ ...options, dtstart });
        rule.all((_, index) => index < 1);
      } catch {
        throw new InvalidRecurrence(line);
      }
      if (name === 'RRULE') set.rrule(rule);
      else set.exrule(rule);
      continue;
    }
    for (const part of value.split(',')) {
      const wall = dateValue(part, params, start.zoneName ?? 'UTC');
      if (!wall.isValid) throw new InvalidRecurrence(line);
      if (name === 'RDATE') set.rdate(floating(wall));
      else set.exdate(floating(wall));
    }
  }
  return set;
}

/** The series' starts (in its zone) from `from` to `to`, at most `max` of them. */
export function starts(lines: string[], start: DateTime, from: DateTime, to: DateTime, max = 1000): DateTime[] {
  const zone = start.zoneName ?? 'UTC';
  // A day of slack either side: floating time is off from real time by the zone's offset.
  const found = ruleSet(lines, start).between(
    floating(from.setZone(zone).minus({ days: 1 })),
    floating(to.setZone(zone).plus({ days: 1 })),
    true,
    (_, index) => index < max,
  );
  return found.map((date) => wallOf(date, zone)).filter((at) => at >= from.minus({ days: 1 }) && at < to);
}
