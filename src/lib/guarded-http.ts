import { readFileSync } from 'node:fs';
import { createSecureContext, rootCertificates } from 'node:tls';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { AddressNotAllowedError, type AddressGuard } from './address-guard.js';

export type TransportFailure =
  'timeout' | 'dns' | 'connection_refused' | 'connection_reset' | 'tls' | 'address_not_allowed' | 'too_many_redirects' | 'network';

export class TransportError extends Error {
  constructor(
    readonly kind: TransportFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface GuardedResponse {
  status: number;
  /** The Retry-After header of a 429 or 503 answer. */
  retryAfter: string | undefined;
  /** The first KiB of the body, as text. */
  snippet: string;
}

/** A GET's answer, its body still to be read (or destroyed) by the caller. */
export interface GuardedStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
  /** The URL that answered, after redirects. */
  url: string;
}

/** Drops an answer's body unread: undici reports a destroyed, unfinished body as an error nobody waits for. */
export function discardBody(body: Readable): void {
  body.on('error', () => undefined);
  body.destroy();
}

const SNIPPET_BYTES = 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function classifyOne(error: unknown): TransportError {
  const err = error as { code?: string; name?: string; message?: string };
  const code = err.code ?? '';
  const message = err.message ?? String(error);
  if (error instanceof AddressNotAllowedError || code === 'EADDRNOTALLOWED') return new TransportError('address_not_allowed', message);
  if (err.name === 'TimeoutError' || err.name === 'AbortError' || /TIMEOUT/.test(code)) return new TransportError('timeout', message);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return new TransportError('dns', message);
  if (code === 'ECONNREFUSED') return new TransportError('connection_refused', message);
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return new TransportError('connection_reset', message);
  if (/^ERR_TLS|^ERR_SSL|CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return new TransportError('tls', message);
  return new TransportError('network', message);
}

/** undici wraps the socket's error; the cause says more when the wrapper says little. */
function classify(error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const direct = classifyOne(error);
  const cause = (error as { cause?: unknown }).cause;
  if (direct.kind === 'network' && cause) {
    const inner = classify(cause);
    if (inner.kind !== 'network') return inner;
  }
  return direct;
}

/**
 * One POST as undici's dispatcher drives it, without the stream, the abort signal and the header object that
 * `request()` makes for every call: only the status, a Retry-After and a snippet of the body are read. The
 * deadline covers the whole exchange, waiting for a connection included; a request it overtakes before it was
 * written is dropped unsent. A body longer than the snippet needs is not read to its end: its connection is closed.
 */
class PostExchange {
  private abort: ((reason: Error) => void) | undefined;
  private readonly deadline: NodeJS.Timeout;
  private status = 0;
  private retryAfter: string | undefined;
  private readonly chunks: Buffer[] = [];
  private bytes = 0;
  private settled = false;

  constructor(
    private readonly resolve: (response: GuardedResponse) => void,
    private readonly reject: (error: TransportError) => void,
    timeoutMs: number,
  ) {
    this.deadline = setTimeout(() => this.fail(new TransportError('timeout', `no answer within ${timeoutMs} ms`)), timeoutMs);
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.settled) abort(new TransportError('timeout', 'the deadline passed before the request was sent'));
    else this.abort = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    this.status = statusCode;
    if (statusCode === 429 || statusCode === 503) this.retryAfter = headerValue(rawHeaders, 'retry-after');
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    // A UTF-8 character is at most 4 bytes: this many hold the snippet's characters.
    if (this.bytes >= 4 * SNIPPET_BYTES) {
      this.succeed();
      // Once undici has returned from the parser that called us.
      queueMicrotask(() => this.abort?.(new TransportError('network', 'the rest of the answer is not read')));
    }
    return true;
  }

  onComplete(): void {
    this.succeed();
  }

  onError(error: Error): void {
    this.fail(classify(error));
  }

  private succeed(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    const snippet = this.bytes === 0 ? '' : Buffer.concat(this.chunks, this.bytes).toString('utf8').slice(0, SNIPPET_BYTES);
    this.resolve({ status: this.status, retryAfter: this.retryAfter, snippet });
  }

  private fail(error: TransportError): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    this.abort?.(error);
    this.reject(error);
  }
}

/** The first value of a header among undici's raw name/value pairs. */
function headerValue(rawHeaders: Buffer[], lowerCaseName: string): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.length === lowerCaseName.length && rawHeaders[i]!.toString('latin1').toLowerCase() === lowerCaseName)
      return rawHeaders[i + 1]!.toString('latin1');
  return undefined;
}

/**
 * Requests to user-given URLs, public destinations only (checked on the address actually connected). `post`
 * (webhooks): HTTPS, no redirects followed, one deadline for the whole exchange, only a snippet of the answer
 * read. `open` (media imports): a streamed GET with a bounded number of redirects.
 */
export class GuardedHttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly guard: AddressGuard,
    options: { caFile?: string | undefined; connections?: number } = {},
  ) {
    const extraCa = options.caFile ? [readFileSync(options.caFile, 'utf8')] : [];
    // One context for every connection: given `ca` instead, each TLS connection parses the ~150 root
    // certificates again (tens of ms of CPU per connection, measured).
    const secureContext = createSecureContext({ ca: [...rootCertificates, ...extraCa] });
    this.agent = new Agent({
      connect: { lookup: guard.lookup as never, secureContext, rejectUnauthorized: true },
      connections: options.connections ?? 50,
      pipelining: 1,
    });
  }

  post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<GuardedResponse> {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') return Promise.reject(new TransportError('network', 'only https destinations are allowed'));
    // Sockets skip `lookup` for IP literals, so those are checked here.
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !this.guard.isAllowed(host)) return Promise.reject(classify(new AddressNotAllowedError(host, host)));
    return new Promise((resolve, reject) => {
      const path = parsed.pathname + parsed.search;
      this.agent.dispatch({ origin: parsed.origin, path, method: 'POST', headers, body }, new PostExchange(resolve, reject, timeoutMs));
    });
  }

  /**
   * GET of a user-given http(s) URL, streamed. A redirect is followed only `maxRedirects` times, and each hop
   * meets the same rules (scheme, no credentials, allowed address at connect) as the first request.
   */
  async open(
    url: string,
    options: { maxRedirects: number; signal: AbortSignal; headers?: Record<string, string> },
  ): Promise<GuardedStream> {
    let current = new URL(url);
    for (let hop = 0; ; hop += 1) {
      if (current.protocol !== 'https:' && current.protocol !== 'http:')
        throw new TransportError('network', `only http and https URLs are fetched, not ${current.protocol}`);
      if (current.username || current.password) throw new TransportError('network', 'URLs with credentials are not fetched');
      const host = current.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host))
        await this.guard.check(host).catch((error: unknown) => {
          throw classify(error);
        });
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(current, { method: 'GET', headers: options.headers, dispatcher: this.agent, signal: options.signal });
      } catch (error) {
        throw classify(error);
      }
      const location = response.headers.location;
      if (!REDIRECTS.has(response.statusCode) || typeof location !== 'string') {
        return { status: response.statusCode, headers: response.headers, body: response.body, url: current.toString() };
      }
      discardBody(response.body);
      if (hop >= options.maxRedirects) throw new TransportError('too_many_redirects', `more than ${options.maxRedirects} redirects`);
      current = new URL(location, current);
    }
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}
