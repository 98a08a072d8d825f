import { PlatformError } from '../errors.js';
import { callPlatform, type PlatformRequest } from '../http.js';
import { retryAfterHeader, retryAtFromUsage } from '../retry-after.js';

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

/** Meta's error rules: by `error.code` first, then by HTTP status. */
export function classifyMetaError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = (typeof body === 'object' && body !== null ? (body as GraphErrorBody).error : undefined) ?? {};
  const code = error.code;
  const message = error.message ?? `the Graph API answered HTTP ${status}`;
  const details = { platformCode: code ?? status, status };
  // 190: the token expired or was invalidated (any subcode); 102: the session behind it ended. Meta answers those
  // with HTTP 401, which means the same where no Graph error body came with it (an edge's or a proxy's answer).
  if (code === 190 || code === 102 || (code === undefined && status === 401)) return new PlatformError('auth_expired', message, details);
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) return new PlatformError('permission_revoked', message, details);
  if (code !== undefined && (RATE_LIMIT_CODES.has(code) || (code >= 80000 && code <= 80014))) {
    const retryAt = retryAtFromUsage(headers) ?? retryAfterHeader(headers);
    return new PlatformError('rate_limited', message, { ...details, ...(retryAt ? { retryAt } : {}) });
  }
  // 1 "unknown error" and 2 "service temporarily unavailable" are Meta's own advice to retry.
  if (status >= 500 || code === 1 || code === 2) return new PlatformError('transient', message, details);
  return new PlatformError('invalid_request', message, details);
}

/** Turns a Graph error answer into the failure it means: Meta's rules, or a platform's own on top of them. */
export type GraphClassifier = (status: number, body: unknown, headers?: Headers) => PlatformError;

/** One Graph exchange; the answer's JSON, or the classified failure. Older versions label JSON text/javascript. */
async function graphFetch<T>(url: string, init: PlatformRequest = {}, classify: GraphClassifier = classifyMetaError): Promise<T> {
  const response = await callPlatform<unknown>(url, init);
  let body = response.body;
  if (typeof body === 'string' && body) {
    try {
      body = JSON.parse(body);
    } catch {
      if (response.status >= 400) throw classify(response.status, {}, response.headers);
      throw new PlatformError('transient', `the Graph API answered something other than JSON (HTTP ${response.status})`, {
        status: response.status,
      });
    }
  }
  if (response.status >= 400 || (typeof body === 'object' && body !== null && 'error' in body)) {
    throw classify(response.status, body, response.headers);
  }
  if (typeof body !== 'object' || body === null) {
    throw new PlatformError('transient', `the Graph API answered an empty body (HTTP ${response.status})`, { status: response.status });
  }
  return body as T;
}

type Params = Record<string, string | number | undefined>;

/** One Graph request: the token as a bearer (never in the URL, so it stays out of logs), the query, a form or a JSON body. */
export interface GraphRequest {
  token?: string;
  query?: Params;
  /** Form-encoded, as the Graph takes writes. */
  form?: Params;
  json?: Record<string, unknown>;
}

/** `method` on `{base}/{path}`; the answer's JSON, or the failure as `classify` reads it. */
export function graphCall<T>(
  base: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  request: GraphRequest = {},
  classify: GraphClassifier = classifyMetaError,
): Promise<T> {
  const headers: Record<string, string> = request.token ? { Authorization: `Bearer ${request.token}` } : {};
  let body: string | undefined;
  if (request.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(definedEntries(request.form)).toString();
  } else if (request.json) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(request.json);
  }
  return graphFetch<T>(
    withQuery(`${base}/${path}`, request.query ?? {}),
    { method, headers, ...(body === undefined ? {} : { body }) },
    classify,
  );
}

function definedEntries(params: Params): Array<[string, string]> {
  return Object.entries(params)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => [name, String(value)]);
}

/** A URL with query parameters; `undefined` values are left out. */
export function withQuery(base: string, query: Record<string, string | number | undefined>): string {
  const url = new URL(base);
  for (const [name, value] of definedEntries(query)) url.searchParams.set(name, value);
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
