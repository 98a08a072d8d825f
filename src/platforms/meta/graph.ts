import { PlatformError } from '../errors.js';
import { callPlatform } from '../http.js';

/**
 * What Meta's Graph-style APIs (Pages, Marketing, Threads) have in common: the error body
 * `{"error":{"message","type","code","error_subcode","fbtrace_id"}}` (usually with HTTP 400, so the code
 * decides, not the status) and the usage headers that say when a throttled caller may come back.
 */
export interface GraphErrorBody {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number; fbtrace_id?: string };
}

/** Throttling: app (4), user (17), page (32), API (341), custom (613); business use case 80000-80014 below. */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 341, 613]);

/**
 * When access comes back, from the usage headers where they say it: the business-use-case and page headers
 * give `estimated_time_to_regain_access` in minutes, the ad-account header `reset_time_duration` in seconds.
 * X-App-Usage has percentages only, so without the others there is no time to give.
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
  if (business && typeof business === 'object') for (const entries of Object.values(business)) if (Array.isArray(entries)) entries.forEach(minutesIn);
  minutesIn(read('x-page-usage'));
  const seconds = (read('x-ad-account-usage') as { reset_time_duration?: unknown } | undefined)?.reset_time_duration;
  if (typeof seconds === 'number' && seconds > 0) waits.push(seconds * 1000);
  return waits.length ? new Date(now + Math.max(...waits)) : undefined;
}

/** Meta's error rules: by `error.code` first, then by HTTP status. */
export function classifyMetaError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = (typeof body === 'object' && body !== null ? (body as GraphErrorBody).error : undefined) ?? {};
  const code = error.code;
  const message = error.message ?? `the Graph API answered HTTP ${status}`;
  const details = { platformCode: code ?? status, status };
  // 190: the token expired or was invalidated (any subcode); 102: the session behind it ended.
  if (code === 190 || code === 102) return new PlatformError('auth_expired', message, details);
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) return new PlatformError('permission_revoked', message, details);
  if (code !== undefined && (RATE_LIMIT_CODES.has(code) || (code >= 80000 && code <= 80014))) {
    const retryAt = retryAtFromUsage(headers);
    return new PlatformError('rate_limited', message, { ...details, ...(retryAt ? { retryAt } : {}) });
  }
  // 1 "unknown error" and 2 "service temporarily unavailable" are Meta's own advice to retry.
  if (status >= 500 || code === 1 || code === 2) return new PlatformError('transient', message, details);
  return new PlatformError('invalid_request', message, details);
}

/** One Graph exchange; the answer's JSON, or the classified failure. Older versions label JSON text/javascript. */
export async function graphFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await callPlatform<unknown>(url, init);
  let body = response.body;
  if (typeof body === 'string' && body) {
    try {
      body = JSON.parse(body);
    } catch {
      if (response.status >= 400) throw classifyMetaError(response.status, {}, response.headers);
      throw new PlatformError('transient', `the Graph API answered something other than JSON (HTTP ${response.status})`, { status: response.status });
    }
  }
  if (response.status >= 400 || (typeof body === 'object' && body !== null && 'error' in body)) {
    throw classifyMetaError(response.status, body, response.headers);
  }
  if (typeof body !== 'object' || body === null) {
    throw new PlatformError('transient', `the Graph API answered an empty body (HTTP ${response.status})`, { status: response.status });
  }
  return body as T;
}

/** A URL with query parameters; `undefined` values are left out. */
export function withQuery(base: string, query: Record<string, string | number | undefined>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value));
  return url.toString();
}

/** Graph's list page: `{data, paging: {cursors: {before, after}, next}}`; `next` is absent on the last page. */
export interface GraphList<T> {
  data: T[];
  paging?: { cursors?: { before?: string; after?: string }; next?: string };
}

/** The cursor of the next page, or null on the last one. */
export function nextCursorOf(list: GraphList<unknown>): string | null {
  return list.paging?.next && list.paging.cursors?.after ? list.paging.cursors.after : null;
}
