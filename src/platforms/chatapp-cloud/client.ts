import { PlatformError } from '../errors.js';
import { classifyMetaError, type GraphClassifier, graphCall } from '../meta/graph.js';
import { retryAfterHeader, retryAtFromUsage } from '../retry-after.js';

/**
 * The cloud API speaks Meta's Graph rules (src/platforms/meta/graph.ts) plus throttles of its own: 130429 (a
 * number's throughput) and 131056 (too many messages to one person); 80007 is in Meta's 80000-80014 already.
 */
const WHATSAPP_RATE_LIMIT_CODES = new Set([130429, 131056]);

export function classifyGraphError(status: number, body: unknown, headers?: Headers): PlatformError {
  const error = classifyMetaError(status, body, headers);
  if (error.kind === 'rate_limited' || !WHATSAPP_RATE_LIMIT_CODES.has(Number(error.details.platformCode))) return error;
  const retryAt = retryAtFromUsage(headers) ?? retryAfterHeader(headers);
  return new PlatformError('rate_limited', error.message, { ...error.details, ...(retryAt ? { retryAt } : {}) });
}

/** One Graph call with a bearer token (never in the URL, so it stays out of logs), a JSON body for writes; failures classified. */
export function graph<T>(
  apiUrl: string,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  options: {
    query?: Record<string, string>;
    body?: Record<string, unknown>;
  } = {},
  classify: GraphClassifier = classifyGraphError,
): Promise<T> {
  return graphCall<T>(apiUrl, method, path, { token, query: options.query, json: options.body }, classify);
}
