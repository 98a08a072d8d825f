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
  headers: Record<string, string | string[] | undefined>;
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

  async post(url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<GuardedResponse> {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') throw new TransportError('network', 'only https destinations are allowed');
    // Sockets skip `lookup` for IP literals, so those are checked here.
    const host = parsed.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host))
      await this.guard.check(host).catch((error: unknown) => {
        throw classify(error);
      });
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await request(url, { method: 'POST', headers, body, dispatcher: this.agent, signal });
      let snippet = '';
      for await (const chunk of response.body) {
        snippet += Buffer.from(chunk as Uint8Array).toString('utf8');
        if (snippet.length >= SNIPPET_BYTES) break;
      }
      if (!response.body.destroyed) response.body.destroy();
      return { status: response.statusCode, headers: response.headers, snippet: snippet.slice(0, SNIPPET_BYTES) };
    } catch (error) {
      throw classify(error);
    }
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
