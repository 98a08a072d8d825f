/** A usage period: one calendar month in UTC, named `YYYY-MM`. */
export interface Period {
  name: string;
  start: Date;
  /** The first instant of the next month, exclusive. */
  end: Date;
}

export function periodNamed(name: string): Period {
  const [year, month] = name.split('-').map(Number) as [number, number];
  return { name, start: new Date(Date.UTC(year, month - 1, 1)), end: new Date(Date.UTC(year, month, 1)) };
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
