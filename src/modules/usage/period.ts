/** A usage period: one calendar month in UTC, named `YYYY-MM`. */
export interface Period {
  name: string;
  start: Date;
  /** The first instant of the next month, exclusive. */
  end: Date;
}

/**
 * The first instant of a month in UTC. Not `Date.UTC(year, …)`: that reads years 0–99 as 1900–1999, so the
 * contract's `0000-01` would be January 1900.
 */
function monthStart(year: number, monthIndex: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, 1);
  return date;
}

export function periodNamed(name: string): Period {
  const [year, month] = name.split('-').map(Number) as [number, number];
  return { name, start: monthStart(year, month - 1), end: monthStart(year, month) };
}

export function periodAt(at: number | Date): Period {
  return periodNamed(new Date(at).toISOString().slice(0, 7));
}

let current: Period | undefined;

/** The name of the period `ms` falls in; the current month's is kept, so counting a request builds no date. */
export function periodNameAt(ms: number): string {
  if (!current || ms < current.start.getTime() || ms >= current.end.getTime()) current = periodAt(ms);
  return current.name;
}
