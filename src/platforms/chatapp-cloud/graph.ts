import { PlatformError } from '../errors.js';
import { callPlatform } from '../http.js';

/** Graph's error body: `{"error":{"message","type","code","error_subcode","fbtrace_id"}}`. */
export interface GraphErrorBody {
  error?: { message?: string; type?: string; code?: number; error_subcode?: number; fbtrace_id?: string };
}

/** Throttling codes: app (4), user (17), page/API (32, 613, 341), business use case (80000-80014), WhatsApp's own. */
const RATE_LIMIT_CODES = new Set([4, 17, 32, 341, 613, 130429, 131056]);

/**
 * When a throttled caller may come back: the business use case header gives minutes
 * (`estimated_time_to_regain_access`); without it, a minute, Meta's shortest usual window.
 */
function retryAtOf(headers: Headers | undefined): Date {
  let minutes = 1;
  const raw = headers?.get('x-business-use-case-usage');
  if (raw) {
    try {
      const usage = JSON.parse(raw) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>;
      const waits = Object.values(usage).flat().map((entry) => entry.estimated_time_to_regain_access ?? 0);
      minutes = Math.max(minutes, ...waits);
    } catch {
      // A header we cannot read changes nothing: the default wait stands.
    }
  }
  return new Date(Date.now() + minutes * 60_000);
}

/** Meta's error rules: by `error.code` first (the HTTP status of Graph errors is mostly 400), then by status. */
export function classifyGraphError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = (typeof body === 'object' && body !== null ? (body as GraphErrorBody).error : undefined) ?? {};
  const code = error.code;
  const message = error.message ?? `the Graph API answered HTTP ${status}`;
  const details = { platformCode: code ?? status, status };
  if (code === 190 || code === 102) return new PlatformError('auth_expired', message, details);
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) return new PlatformError('permission_revoked', message, details);
  if (code !== undefined && (RATE_LIMIT_CODES.has(code) || (code >= 80000 && code <= 80014))) {
    return new PlatformError('rate_limited', message, { ...details, retryAt: retryAtOf(headers) });
  }
  // 1 "unknown error" and 2 "service temporarily unavailable" are Meta's own advice to retry.
  if (status >= 500 || code === 1 || code === 2) return new PlatformError('transient', message, details);
  return new PlatformError('invalid_request', message, details);
}

/** One Graph call with a bearer token (never in the URL, so it stays out of logs); failures classified. */
export async function graph<T>(apiUrl: string, token: string, method: 'GET' | 'POST' | 'DELETE', path: string, options: {
  query?: Record<string, string>; body?: Record<string, unknown>;
} = {}): Promise<T> {
  const url = new URL(`${apiUrl}/${path}`);
  for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.set(name, value);
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (options.body) headers['Content-Type'] = 'application/json';
  const response = await callPlatform<unknown>(url.toString(), {
    method, headers, ...(options.body ? { body: JSON.stringify(options.body) } : {}),
  });
  let body = response.body;
  // Older Graph versions label JSON as text/javascript.
  if (typeof body === 'string' && body) {
    try {
      body = JSON.parse(body);
    } catch {
      throw new PlatformError('transient', `the Graph API answered something other than JSON (HTTP ${response.status})`, { status: response.status });
    }
  }
  if (response.status >= 400 || (typeof body === 'object' && body !== null && 'error' in body)) {
    throw classifyGraphError(response.status, body, response.headers);
  }
  if (typeof body !== 'object' || body === null) {
    throw new PlatformError('transient', `the Graph API answered an empty body (HTTP ${response.status})`, { status: response.status });
  }
  return body as T;
}
