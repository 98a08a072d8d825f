import { PlatformError } from '../errors.js';
import { callPlatform } from '../http.js';
import { orAfterSeconds, retryAfterSeconds } from '../retry-after.js';

/** Telegram Bot API answers (https://core.telegram.org/bots/api#making-requests). */
interface BotResponse<T> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number };
}

/**
 * The bot API's rules: 401 and 404 (the token is gone), 403 (the bot may not act there), 429 with
 * `parameters.retry_after`, 5xx; the rest is the request's fault. `platformCode` is the API's `error_code`.
 */
function classifyBotError(status: number, body: BotResponse<unknown>): PlatformError {
  const { error_code: code = status, description = 'the bot API refused the request', parameters } = body;
  if (code === 401 || code === 404) return new PlatformError('auth_expired', description, { platformCode: code, status });
  if (code === 403) return new PlatformError('permission_revoked', description, { platformCode: code, status });
  if (code === 429) {
    // The API always says how long; a second is the shortest wait it ever asks for.
    const retryAt = orAfterSeconds(retryAfterSeconds(parameters?.retry_after), 1);
    return new PlatformError('rate_limited', description, { platformCode: code, retryAt, status });
  }
  if (code >= 500) return new PlatformError('transient', description, { platformCode: code, status });
  return new PlatformError('invalid_request', description, { platformCode: code, status });
}

/** The bot API of one host: a method of one bot, called by its token; the result, or the classified failure. */
export class BotchatClient {
  constructor(private readonly apiUrl: string) {}

  async call<T>(token: string, method: string, params: Record<string, unknown> = {}): Promise<T> {
    const response = await callPlatform<BotResponse<T>>(`${this.apiUrl}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(params),
    });
    if (typeof response.body === 'object' && response.body !== null && response.body.ok) return response.body.result as T;
    throw classifyBotError(response.status, typeof response.body === 'object' && response.body !== null ? response.body : { ok: false });
  }

  /** A file people sent the bot, by its `file_id`: getFile, then its bytes from the file host. */
  async download(token: string, fileId: string): Promise<{ bytes: Buffer; mimeType: string | null }> {
    const file = await this.call<{ file_path?: string }>(token, 'getFile', { file_id: fileId });
    if (!file.file_path) throw new PlatformError('invalid_request', 'the file is too big for bots to download');
    const response = await fetch(`${this.apiUrl}/file/bot${token}/${file.file_path}`, { signal: AbortSignal.timeout(20_000) }).catch(
      (error: Error) => {
        throw new PlatformError('transient', `the file could not be fetched: ${error.message}`);
      },
    );
    if (!response.ok)
      throw new PlatformError(response.status >= 500 ? 'transient' : 'invalid_request', `the file host answered ${response.status}`);
    return { bytes: Buffer.from(await response.arrayBuffer()), mimeType: response.headers.get('content-type') };
  }
}
