/**
 * When a throttled caller may come back, read from what the platform said. Every client puts it in
 * `PlatformError.details.retryAt` through these, so that the job (or the 429 the API answers) waits as long as
 * the platform asked and no longer. Each answers undefined when the platform said nothing it can read.
 */

/** `Retry-After` (RFC 9110 §10.2.3): a number of seconds, or an HTTP-date. */
export function retryAfterHeader(headers: Headers | undefined, now = Date.now()): Date | undefined {
  const raw = headers?.get('retry-after')?.trim();
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return new Date(now + Number(raw) * 1000);
  // Every HTTP-date form starts with the day's name (`Sun, 06 Nov 1994 08:49:37 GMT`).
  const at = /^[A-Za-z]{3}/.test(raw) ? Date.parse(raw) : Number.NaN;
  // A date already past means "now": the time to come back is not before the answer.
  return Number.isNaN(at) ? undefined : new Date(Math.max(at, now));
}

/** A wait in seconds the platform put in its body (the bot API's `parameters.retry_after`). */
export function retryAfterSeconds(seconds: unknown, now = Date.now()): Date | undefined {
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? new Date(now + seconds * 1000) : undefined;
}

/**
 * Meta's usage headers: the business-use-case and page headers give `estimated_time_to_regain_access` in
 * minutes, the ad-account header `reset_time_duration` in seconds; the longest wait wins. X-App-Usage has
 * percentages only, so without the others there is no time to give.
 */
export function retryAtFromUsage(headers: Headers | undefined, now = Date.now()): Date | undefined {
  const waits: number[] = [];
  const read = (name: string): unknown => {
    const raw = headers?.get(name);
    if (!raw) return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return undefined; // An unreadable header gives no time; the error is still a throttle.
    }
  };
  const minutesIn = (entry: unknown) => {
    const minutes = (entry as { estimated_time_to_regain_access?: unknown } | null)?.estimated_time_to_regain_access;
    if (typeof minutes === 'number' && minutes > 0) waits.push(minutes * 60_000);
  };
  const business = read('x-business-use-case-usage');
  if (business && typeof business === 'object')
    for (const entries of Object.values(business)) if (Array.isArray(entries)) entries.forEach(minutesIn);
  minutesIn(read('x-page-usage'));
  const seconds = (read('x-ad-account-usage') as { reset_time_duration?: unknown } | undefined)?.reset_time_duration;
  if (typeof seconds === 'number' && seconds > 0) waits.push(seconds * 1000);
  return waits.length ? new Date(now + Math.max(...waits)) : undefined;
}

/** What the platform said, else `seconds` from now: for platforms that throttle without always saying for how long. */
export function orAfterSeconds(said: Date | undefined, seconds: number, now = Date.now()): Date {
  return said ?? new Date(now + seconds * 1000);
}
