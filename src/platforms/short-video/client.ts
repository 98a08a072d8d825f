import { PlatformError } from '../errors.js';
import { callPlatform } from '../http.js';
import { orAfterSeconds, retryAfterHeader } from '../retry-after.js';

/** Every open API answer: `error.code` is `ok` on success. */
interface ApiBody<T> {
  data?: T;
  error?: { code?: string; message?: string; log_id?: string };
}
/** The OAuth endpoints answer the token itself, or `{error, error_description, log_id}`. */
export interface TokenBody {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
  refresh_expires_in?: number;
  open_id?: string;
  scope?: string;
  error?: string;
  error_description?: string;
  log_id?: string;
}

/** A refusal the caller knows better than the common rules (an init's), or null to apply them. */
export type Refusal = (code: string, message: string, status: number) => PlatformError | null;

/** Throttled without a Retry-After: a minute, the window the platform's per-minute limits count in. */
function throttledUntil(headers?: Headers): Date {
  return orAfterSeconds(retryAfterHeader(headers), 60);
}

/** The open API's rules: 401 `access_token_invalid` / `scope_not_authorized`, 429 `rate_limit_exceeded`, 5xx. */
function classifyApi(status: number, body: ApiBody<unknown>, headers?: Headers): PlatformError {
  const code = body.error?.code ?? String(status);
  const message = body.error?.message || `HTTP ${status} (${code})`;
  const details = { platformCode: code, status };
  if (code === 'scope_not_authorized' || code === 'scope_permission_missed')
    return new PlatformError('permission_revoked', message, details);
  if (status === 401 || code === 'access_token_invalid') return new PlatformError('auth_expired', message, details);
  if (status === 429 || code === 'rate_limit_exceeded') {
    return new PlatformError('rate_limited', message, { ...details, retryAt: throttledUntil(headers) });
  }
  if (status >= 500 || code === 'internal_error') return new PlatformError('transient', message, details);
  return new PlatformError('invalid_request', message, details);
}

/** The OAuth endpoints' rules: `invalid_grant` means the refresh token (or code) is spent, expired or revoked. */
function classifyOAuth(status: number, body: TokenBody, headers?: Headers): PlatformError {
  const code = body.error ?? String(status);
  const message = body.error_description || `HTTP ${status} (${code})`;
  if (code === 'invalid_grant') return new PlatformError('auth_expired', message, { platformCode: code, status });
  if (status === 429 || code === 'rate_limit_exceeded') {
    return new PlatformError('rate_limited', message, { platformCode: code, status, retryAt: throttledUntil(headers) });
  }
  if (status >= 500) return new PlatformError('transient', message, { platformCode: code, status });
  return new PlatformError('invalid_request', message, { platformCode: code, status });
}

/**
 * `publicaly_available_post_id` (the platform's spelling) is a list of int64 numbers past 2^53, which JSON.parse
 * would round to another post's id: they are made strings before parsing.
 */
function parseWithLongIds(text: string): unknown {
  return JSON.parse(
    text.replace(
      /("publicaly_available_post_id"\s*:\s*\[)([^\]]*)\]/,
      (_, head: string, ids: string) => `${head}${ids.replace(/-?\d+/g, '"$&"')}]`,
    ),
  );
}

/** Login Kit and the open API of one host, for one app: each call's `data`, or the classified failure. */
export class ShortVideoClient {
  constructor(
    private readonly apiUrl: string,
    private readonly app: { clientKey: string; clientSecret: string },
  ) {}

  /**
   * An OAuth endpoint (form-encoded, with the app's client): its answer, refused when it names an error (even
   * with HTTP 200) or when `answered` finds what was asked for missing.
   */
  async oauth(
    path: '/v2/oauth/token/' | '/v2/oauth/revoke/',
    params: Record<string, string>,
    answered: (body: TokenBody) => boolean = () => true,
  ): Promise<TokenBody> {
    const response = await callPlatform<TokenBody>(`${this.apiUrl}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_key: this.app.clientKey, client_secret: this.app.clientSecret, ...params }).toString(),
    });
    const body = typeof response.body === 'object' && response.body !== null ? response.body : {};
    if (response.status >= 300 || body.error || !answered(body)) throw classifyOAuth(response.status, body, response.headers);
    return body;
  }

  /** An open API call with the user's token: `error.code` other than `ok` is a failure even with HTTP 200. */
  async api<T>(token: string, method: 'GET' | 'POST', path: string, body?: unknown, refusal?: Refusal): Promise<T> {
    const response = await callPlatform<ApiBody<T>>(`${this.apiUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=UTF-8' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const parsed = typeof response.body === 'object' && response.body !== null ? response.body : {};
    const code = parsed.error?.code;
    if (response.status < 300 && (!code || code === 'ok')) return (parsed.data ?? {}) as T;
    throw (
      (code ? refusal?.(code, parsed.error?.message ?? '', response.status) : null) ??
      classifyApi(response.status, parsed, response.headers)
    );
  }

  /**
   * The status fetch, read as text for its int64 ids. It bypasses callPlatform on purpose: a status read that
   * never connected says nothing about the post (its init went out before), so it must not count as `unsent`.
   */
  async postStatus<T>(token: string, publishId: string): Promise<T> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.apiUrl}/v2/post/publish/status/fetch/`, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.timeout(20_000),
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json; charset=UTF-8' },
        body: JSON.stringify({ publish_id: publishId }),
      });
      text = await response.text();
    } catch (error) {
      throw new PlatformError('transient', `the platform could not be reached: ${(error as Error).message}`);
    }
    let parsed: ApiBody<T> = {};
    try {
      parsed = parseWithLongIds(text) as ApiBody<T>;
    } catch {
      if (response.status < 300)
        throw new PlatformError('transient', `the platform answered invalid JSON (HTTP ${response.status})`, { status: response.status });
    }
    const code = parsed.error?.code;
    if (response.status < 300 && (!code || code === 'ok')) return (parsed.data ?? {}) as T;
    throw classifyApi(response.status, parsed, response.headers);
  }
}
