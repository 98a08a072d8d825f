import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'undici';
import { PlatformError } from './errors.js';
import { parseJsonExactly } from './json-body.js';

export interface PlatformResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** What the adapters send: every body they write is text (JSON, or a form already encoded). */
export interface PlatformRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
}

const TIMEOUT_MS = 20_000;
/** Connection failures before any byte of the request left: the platform cannot have acted on it. */
const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** undici's error, or the socket's error it wraps: the first code found. */
function errorCode(error: unknown): string {
  for (let current = error as { code?: unknown; cause?: unknown } | undefined; current; current = current.cause as typeof current) {
    if (typeof current.code === 'string') return current.code;
  }
  return '';
}

function asHeaders(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const one of value) headers.append(name, one);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}

/**
 * The deadline of one exchange, as undici takes a signal: an emitter that says `abort` when the time is up. An
 * `AbortSignal.timeout` per call (an event target, a timer, an entry in a finalization registry) cost 16 µs of CPU
 * on the bench's machine; this costs half a µs.
 */
function deadline(ms: number): { signal: EventEmitter & { reason?: Error }; clear(): void } {
  const signal: EventEmitter & { reason?: Error } = new EventEmitter();
  const timer = setTimeout(() => {
    signal.reason = new Error(`no answer within ${ms / 1000} s`);
    signal.emit('abort');
  }, ms);
  return { signal, clear: () => clearTimeout(timer) };
}

/**
 * One HTTP exchange with a platform, on undici's plain `request` (a worker sends many; `fetch` costs about twice
 * the CPU per call). Redirects are not followed. Network failures and time-outs become `transient`; what the
 * platform answered is returned as it is for the adapter to classify with the platform's own error rules.
 */
export async function callPlatform<T>(url: string, init: PlatformRequest = {}): Promise<PlatformResponse<T>> {
  let status: number;
  let raw: IncomingHttpHeaders;
  let text: string;
  // One deadline for the whole exchange, body included: the platform-write ledger's lease counts on it.
  const { signal, clear } = deadline(TIMEOUT_MS);
  try {
    const response = await request(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body, signal });
    status = response.statusCode;
    raw = response.headers;
    text = await response.body.text();
  } catch (error) {
    const code = errorCode(error);
    throw new PlatformError('transient', `the platform could not be reached: ${(error as Error).message}${code ? ` (${code})` : ''}`, {
      unsent: UNSENT_CODES.has(code),
    });
  } finally {
    clear();
  }
  let body: unknown = text;
  if (text && /json/.test(String(raw['content-type'] ?? ''))) {
    try {
      body = parseJsonExactly(text);
    } catch {
      throw new PlatformError('transient', `the platform answered invalid JSON (HTTP ${status})`, { status });
    }
  }
  // Made when read: most answers are judged by their body alone.
  let headers: Headers | undefined;
  return {
    status,
    body: body as T,
    get headers() {
      return (headers ??= asHeaders(raw));
    },
  };
}
