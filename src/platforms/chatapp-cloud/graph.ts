import { PlatformError } from '../errors.js';
import { classifyMetaError, graphFetch, retryAtFromUsage, withQuery } from '../meta/graph.js';

/**
 * The cloud API speaks Meta's Graph rules (src/platforms/meta/graph.ts) plus throttles of its own: 130429 (a
 * number's throughput) and 131056 (too many messages to one person); 80007 is in Meta's 80000-80014 already.
 */
const WHATSAPP_RATE_LIMIT_CODES = new Set([130429, 131056]);

function whatsappThrottle(error: PlatformError, headers?: Headers): PlatformError {
  if (error.kind === 'rate_limited' || !WHATSAPP_RATE_LIMIT_CODES.has(Number(error.details.platformCode))) return error;
  const retryAt = retryAtFromUsage(headers);
  return new PlatformError('rate_limited', error.message, { ...error.details, ...(retryAt ? { retryAt } : {}) });
}

export function classifyGraphError(status: number, body: unknown, headers?: Headers): PlatformError {
  return whatsappThrottle(classifyMetaError(status, body, headers), headers);
}

/** One Graph call with a bearer token (never in the URL, so it stays out of logs); failures classified. */
export async function graph<T>(apiUrl: string, token: string, method: 'GET' | 'POST' | 'DELETE', path: string, options: {
  query?: Record<string, string>; body?: Record<string, unknown>;
} = {}): Promise<T> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (options.body) headers['Content-Type'] = 'application/json';
  try {
    return await graphFetch<T>(withQuery(`${apiUrl}/${path}`, options.query ?? {}), {
      method, headers, ...(options.body ? { body: JSON.stringify(options.body) } : {}),
    });
  } catch (error) {
    throw error instanceof PlatformError ? whatsappThrottle(error) : error;
  }
}
