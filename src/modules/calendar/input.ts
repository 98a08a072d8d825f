import { DateTime, IANAZone } from 'luxon';
import { RRule } from '../../lib/rrule.js';
import type { CalendarEventChanges, CalendarEventInput } from '../../platforms/capabilities/calendar.js';
import { type FieldError, ValidationFailedError } from '../../lib/errors.js';

type Time = CalendarEventInput['start'];

const RULE_PARTS = /^[A-Z]+=[^;=]+(;[A-Z]+=[^;=]+)*$/;
const POSITIVE = /^[1-9][0-9]*$/;

/** Why an RRULE (or EXRULE) value is not one the platform will expand, or null. */
function ruleProblem(rule: string): string | null {
  if (!RULE_PARTS.test(rule)) return 'is not a list of NAME=value parts separated by ";"';
  const parts = new Map(rule.split(';').map((part) => part.split('=') as [string, string]));
  if (!parts.has('FREQ')) return 'has no FREQ';
  for (const name of ['COUNT', 'INTERVAL']) {
    const value = parts.get(name);
    if (value !== undefined && !POSITIVE.test(value)) return `has ${name}=${value}, not a positive whole number`;
  }
  if (parts.has('COUNT') && parts.has('UNTIL')) return 'has both COUNT and UNTIL (RFC 5545 allows one)';
  try {
    const options = RRule.parseString(rule);
    if (options.freq === undefined || options.freq === null) return `has an unknown FREQ ${parts.get('FREQ')}`;
    if (Array.isArray(options.byweekday) && options.byweekday.some((day) => day === null || day === undefined))
      return `has an unknown BYDAY day (${parts.get('BYDAY')})`;
    if (options.until && Number.isNaN(options.until.getTime())) return `has an invalid UNTIL (${parts.get('UNTIL')})`;
    new RRule({ ...options, dtstart: new Date(Date.UTC(2026, 0, 1)) }).all((_, index) => index < 1);
  } catch (error) {
    return `cannot be read: ${(error as Error).message}`;
  }
  return null;
}

/** Why an RDATE or EXDATE line's values are not dates or instants (in a known zone), or null. */
function datesProblem(params: string[], values: string): string | null {
  const named = new Map(params.map((param) => param.split('=') as [string, string]));
  const zone = named.get('TZID');
  if (zone !== undefined && !IANAZone.isValidZone(zone)) return `names TZID=${zone}, not an IANA time zone`;
  const kind = named.get('VALUE') ?? 'DATE-TIME';
  if (kind !== 'DATE' && kind !== 'DATE-TIME') return `has VALUE=${kind}; DATE and DATE-TIME are taken`;
  for (const value of values.split(',')) {
    const format = kind === 'DATE' ? 'yyyyMMdd' : value.endsWith('Z') ? "yyyyMMdd'T'HHmmss'Z'" : "yyyyMMdd'T'HHmmss";
    if (!DateTime.fromFormat(value, format, { zone: 'UTC' }).isValid)
      return `has ${value}, not a ${kind === 'DATE' ? 'date (YYYYMMDD)' : 'date-time (YYYYMMDDTHHMMSS[Z])'}`;
  }
  return null;
}

/** Why one `recurrence` line is refused, or null: RRULE and EXRULE rules, RDATE and EXDATE dates (RFC 5545). */
export function recurrenceProblem(line: string): string | null {
  const match = /^(RRULE|EXRULE|RDATE|EXDATE)((?:;[A-Z-]+=[^:;]+)*):(.+)$/.exec(line);
  if (!match) return 'is not an RRULE, EXRULE, RDATE or EXDATE line (NAME[;PARAM=value]:value)';
  const [, name, params, value] = match as unknown as [string, string, string, string];
  if (name === 'RRULE' || name === 'EXRULE') return params ? `${name} takes no parameters` : ruleProblem(value);
  return datesProblem(params.split(';').filter(Boolean), value);
}

function timeProblems(time: Time, at: string): FieldError[] {
  if (time.timeZone !== undefined && !IANAZone.isValidZone(time.timeZone)) {
    return [{ path: `${at}/timeZone`, code: 'time_zone', message: `${time.timeZone} is not an IANA time zone (like Europe/Berlin).` }];
  }
  return [];
}

const isAllDay = (time: Time): time is Extract<Time, { date: string }> => 'date' in time;

/**
 * What the contract's schema cannot say about an event: real IANA zones, start and end of one kind with the end
 * after the start, rules the platform can expand, reminders that do not both default and override. On a change,
 * only what is given is checked; the platform checks the rest against the event as it is.
 */
export function checkEvent(input: CalendarEventInput | CalendarEventChanges, isNew: boolean): void {
  const errors: FieldError[] = [];
  if (input.start) errors.push(...timeProblems(input.start, 'body/start'));
  if (input.end) errors.push(...timeProblems(input.end, 'body/end'));
  if (input.start && input.end) {
    if (isAllDay(input.start) !== isAllDay(input.end)) {
      errors.push({ path: 'body/end', code: 'time_kind', message: 'start and end must both be dates (all-day) or both dateTimes.' });
    } else {
      const start = Date.parse('date' in input.start ? input.start.date : input.start.dateTime);
      const end = Date.parse('date' in input.end ? input.end.date : input.end.dateTime);
      if (!(end > start)) {
        const hint = isAllDay(input.end) ? ' (an all-day end date is exclusive: the day after the last day)' : '';
        errors.push({ path: 'body/end', code: 'time_order', message: `The event must end after it starts${hint}.` });
      }
    }
  }
  (input.recurrence ?? []).forEach((line, index) => {
    const problem = recurrenceProblem(line);
    if (problem) errors.push({ path: `body/recurrence/${index}`, code: 'recurrence', message: `${line} ${problem}.` });
  });
  if (isNew && (input.recurrence ?? []).length > 0 && input.start && !isAllDay(input.start) && !input.start.timeZone) {
    errors.push({
      path: 'body/start/timeZone',
      code: 'required',
      message: 'A recurring timed event needs start.timeZone: its instances keep their local time across daylight-saving changes.',
    });
  }
  if (input.reminders?.useDefault && (input.reminders.overrides ?? []).length > 0) {
    errors.push({
      path: 'body/reminders/overrides',
      code: 'reminders',
      message: 'Give overrides with useDefault false, not with the defaults.',
    });
  }
  if (errors.length > 0) throw new ValidationFailedError(errors);
}
