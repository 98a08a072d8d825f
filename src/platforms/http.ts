import { PlatformError } from './errors.js';

export interface PlatformResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

const TIMEOUT_MS = 20_000;
/** Connection failures before any byte of the request left: the platform cannot have acted on it. */
const UNSENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * One HTTP exchange with a platform. Network failures and time-outs become `transient`; what the platform
 * answered is returned as it is for the adapter to classify with the platform's own error rules.
 */
export async function callPlatform<T>(url: string, init: RequestInit = {}): Promise<PlatformResponse<T>> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code ?? '';
    throw new PlatformError('transient', `the platform could not be reached: ${(error as Error).message}${code ? ` (${code})` : ''}`, {
      unsent: UNSENT_CODES.has(code),
    });
  }
  const text = await response.text();
  let body: unknown = text;
  if (text && /json/.test(response.headers.get('content-type') ?? '')) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new PlatformError('transient', `the platform answered invalid JSON (HTTP ${response.status})`, { status: response.status });
    }
  }
  return { status: response.status, body: body as T, headers: response.headers };
}
