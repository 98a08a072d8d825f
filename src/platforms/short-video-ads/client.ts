import { randomBytes } from 'node:crypto';
import { PlatformError } from '../errors.js';
import { callPlatform } from '../http.js';
import { orAfterSeconds, retryAfterHeader } from '../retry-after.js';

/** Every answer is HTTP 200 with this envelope; a non-zero `code` is the failure. */
interface Envelope<T> {
  code?: number;
  message?: string;
  request_id?: string;
  data?: T;
}

/**
 * The envelope's codes: 40100 rate limit; 40102/40104/40105 the token (or refresh token) is expired, spent or
 * revoked; 40001 no permission on the advertiser; 5xxxx the platform's fault; the rest are our request's fault
 * (40101 bad app, 40110 bad auth code, 40002 bad parameters). The envelope gives no time to come back: a
 * minute, the window its per-minute limits count in, unless a Retry-After says otherwise.
 */
function classifyBusiness(status: number, body: Envelope<unknown>, headers?: Headers): PlatformError {
  const code = body.code ?? status;
  const message = body.message || `HTTP ${status} (code ${code})`;
  const details = { platformCode: code, status };
  if (code === 40100 || status === 429) {
    return new PlatformError('rate_limited', message, { ...details, retryAt: orAfterSeconds(retryAfterHeader(headers), 60) });
  }
  if (code === 40102 || code === 40104 || code === 40105 || status === 401) return new PlatformError('auth_expired', message, details);
  if (code === 40001) return new PlatformError('permission_revoked', message, details);
  if (status >= 500 || code >= 50000) return new PlatformError('transient', message, details);
  return new PlatformError('invalid_request', message, details);
}

/** The Business API at its versioned root: an envelope's `data`, or the classified failure. */
export class BusinessApiClient {
  constructor(private readonly apiUrl: string) {}

  async call<T>(path: string, options: { method?: 'GET' | 'POST'; body?: unknown; accessToken?: string }): Promise<T> {
    return (await this.envelope<T>(path, options)).data;
  }

  /** A call whose whole answer is wanted: the `data`, the platform's `message` and the `request_id` to quote. */
  async envelope<T>(
    path: string,
    options: { method?: 'GET' | 'POST'; body?: unknown; accessToken?: string },
  ): Promise<{ data: T; message: string | null; requestId: string | null }> {
    return this.exchange<T>(path, options.method ?? 'GET', options.accessToken, {
      type: 'application/json',
      text: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  }

  /** A `multipart/form-data` POST of text fields and one text file (an audience's hashed CSV). */
  async upload<T>(path: string, accessToken: string, fields: Record<string, string>, file: { name: string; text: string }): Promise<T> {
    const boundary = `----socialgate${randomBytes(12).toString('hex')}`;
    const part = (name: string, extra = '') => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${extra}\r\n`;
    const text = [
      ...Object.entries(fields).map(([name, value]) => `${part(name)}\r\n${value}\r\n`),
      `${part('file', `; filename="${file.name}"`)}Content-Type: text/csv\r\n\r\n${file.text}\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    return (await this.exchange<T>(path, 'POST', accessToken, { type: `multipart/form-data; boundary=${boundary}`, text })).data;
  }

  private async exchange<T>(path: string, method: 'GET' | 'POST', accessToken: string | undefined, sent: { type: string; text?: string }) {
    const headers: Record<string, string> = {};
    // The Business API takes its token in `Access-Token`, not as a bearer.
    if (accessToken) headers['Access-Token'] = accessToken;
    if (sent.text !== undefined) headers['Content-Type'] = sent.type;
    const response = await callPlatform<Envelope<T>>(`${this.apiUrl}${path}`, { method, headers, body: sent.text });
    const body = typeof response.body === 'object' && response.body !== null ? response.body : {};
    if (response.status >= 300 || body.code !== 0) throw classifyBusiness(response.status, body, response.headers);
    return { data: (body.data ?? {}) as T, message: body.message ?? null, requestId: body.request_id ?? null };
  }
}
