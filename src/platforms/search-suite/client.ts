import { PlatformError } from '../errors.js';
import { callPlatform } from '../http.js';
import type { OAuthGrant } from '../capabilities/oauth.js';
import { orAfterSeconds, retryAfterHeader } from '../retry-after.js';
import type { Credentials } from '../types.js';

interface GoogleError {
  error?: { code?: number; message?: string; status?: string; errors?: Array<{ reason?: string }> } | string;
  error_description?: string;
}

/** The scope of a business's profiles: their posts and their figures. */
export const BUSINESS_SCOPE = 'https://www.googleapis.com/auth/business.manage';

/** The OAuth app and its token endpoint. */
export interface GoogleApp {
  clientId: string;
  clientSecret: string;
  tokenUrl: string;
}

/**
 * Google's error rules: 401 credentials, 403 permission or rate limit by reason, 429, 5xx, invalid_grant. A
 * throttle without a Retry-After waits a minute, the window Google's per-minute quotas count in.
 */
function classifyGoogle(status: number, body: GoogleError, headers?: Headers): PlatformError {
  if (typeof body.error === 'string') {
    const kind = body.error === 'invalid_grant' ? 'auth_expired' : status >= 500 ? 'transient' : 'invalid_request';
    return new PlatformError(kind, body.error_description ?? body.error, { platformCode: body.error, status });
  }
  const message = body.error?.message ?? `HTTP ${status}`;
  const reason = body.error?.errors?.[0]?.reason ?? body.error?.status;
  if (status === 401) return new PlatformError('auth_expired', message, { platformCode: reason ?? 401, status });
  if (status === 429 || reason === 'rateLimitExceeded' || reason === 'userRateLimitExceeded' || reason === 'RESOURCE_EXHAUSTED') {
    return new PlatformError('rate_limited', message, {
      platformCode: reason ?? status,
      status,
      retryAt: orAfterSeconds(retryAfterHeader(headers), 60),
    });
  }
  if (status === 403) return new PlatformError('permission_revoked', message, { platformCode: reason ?? 403, status });
  if (status >= 500) return new PlatformError('transient', message, { platformCode: status, status });
  return new PlatformError('invalid_request', message, { platformCode: reason ?? status, status });
}

/** One call of a Google API with the user's token: the answer's JSON object (a DELETE may answer none), or the classified failure. */
export async function google<T>(
  url: string,
  accessToken: string,
  init: { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; json?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const method = init.method ?? 'GET';
  const response = await callPlatform<T & GoogleError>(url, {
    method,
    headers: {
      Authorization: `Bearer ${accessToken}`,
      ...(init.json === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  const body = typeof response.body === 'object' && response.body !== null ? response.body : undefined;
  if (response.status >= 300 || (!body && method !== 'DELETE')) throw classifyGoogle(response.status, body ?? {}, response.headers);
  return (body ?? {}) as T;
}

/** The token endpoint, for the code exchange and for refreshes (form-encoded, as the protocol wants). */
export async function googleToken(app: GoogleApp, params: Record<string, string>): Promise<OAuthGrant> {
  const response = await callPlatform<{ access_token: string; expires_in?: number; refresh_token?: string; scope?: string } & GoogleError>(
    app.tokenUrl,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: app.clientId, client_secret: app.clientSecret, ...params }).toString(),
    },
  );
  if (response.status >= 300 || typeof response.body !== 'object' || response.body === null) {
    throw classifyGoogle(
      response.status,
      typeof response.body === 'object' && response.body !== null ? response.body : {},
      response.headers,
    );
  }
  const body = response.body;
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token ?? null,
    expiresAt: body.expires_in ? new Date(Date.now() + body.expires_in * 1000) : null,
    scopes: (body.scope ?? '').split(' ').filter(Boolean),
    extra: {},
  };
}

/** New tokens for one account; Google keeps the refresh token unless it sends another. */
export async function refreshGoogle(app: GoogleApp, credentials: Credentials) {
  if (!credentials.refreshToken) throw new PlatformError('auth_expired', 'no refresh token was granted; connect again');
  const grant = await googleToken(app, { grant_type: 'refresh_token', refresh_token: credentials.refreshToken });
  return {
    credentials: { ...credentials, accessToken: grant.accessToken, refreshToken: grant.refreshToken ?? credentials.refreshToken },
    tokenExpiresAt: grant.expiresAt,
  };
}

/** Revokes the grant behind an account's tokens, by its refresh token where it has one (best effort: the answer is not read). */
export async function revokeGoogle(revokeUrl: string, credentials: Credentials): Promise<void> {
  const token = credentials.refreshToken ?? credentials.accessToken;
  await callPlatform(`${revokeUrl}?${new URLSearchParams({ token })}`, { method: 'POST' });
}
