import { discardBody, GuardedHttpClient, TransportError } from '../../lib/guarded-http.js';
import { spool, SpoolLimitError } from '../../lib/spool.js';
import type { AddressGuard } from '../../lib/address-guard.js';
import type { Services } from '../../services.js';
import { formatBytes, MediaRejectedError } from './errors.js';
import { mediaFolders } from './storage.js';
import type { UploadedFile } from '../../http/multipart.js';

/** The contract's MediaImport.url: "following at most 3 redirects". */
export const MAX_REDIRECTS = 3;

/** One client per address guard (per service instance): the webhooks' rules, CA file and allowed ranges. */
const clients = new WeakMap<AddressGuard, GuardedHttpClient>();

export function clientFor(services: Services): GuardedHttpClient {
  let client = clients.get(services.addressGuard);
  if (!client) {
    client = new GuardedHttpClient(services.addressGuard, { caFile: services.config.webhooks.caFile, connections: 10 });
    clients.set(services.addressGuard, client);
  }
  return client;
}

function fetchFailed(detail: string): MediaRejectedError {
  return new MediaRejectedError('fetch_failed', `The URL could not be fetched: ${detail}`, 'body/url');
}

/** Why a fetch through the guard failed, as the end of a sentence. */
export function transportDetail(error: unknown, timeoutMs: number): string {
  if (!(error instanceof TransportError)) return `${(error as Error).message}.`;
  switch (error.kind) {
    case 'address_not_allowed':
      return 'its host resolves to an address that is not public (loopback, private, link-local or reserved); only public addresses are fetched.';
    case 'dns':
      return 'its host name does not resolve.';
    case 'timeout':
      return `it did not answer with the whole file within ${Math.round(timeoutMs / 1000)} seconds.`;
    case 'connection_refused':
      return 'its server refused the connection.';
    case 'tls':
      return `its server's TLS certificate is not valid (${error.message}).`;
    case 'too_many_redirects':
      return `it redirected more than ${MAX_REDIRECTS} times.`;
    default:
      return `${error.message}.`;
  }
}

/** "winter-blend.jpg" from https://cdn.example/img/winter-blend.jpg?v=2, or null when the path ends in a folder. */
export function lastSegment(url: string): string | null {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(segment);
  } catch {
    name = segment;
  }
  name = name
    // eslint-disable-next-line no-control-regex -- control characters are what this removes.
    .replace(/[\u0000-\u001f\u007f/\\]/g, '')
    .trim()
    .slice(0, 255);
  return name || null;
}

/**
 * Fetches a user-given URL into a temporary file, through the SSRF guard of webhooks: public addresses only
 * (checked on each connection, so on every redirect hop too), at most 3 redirects, one deadline, and the
 * largest size any kind may have enforced while streaming.
 */
export async function importFromUrl(services: Services, url: string, filename: string | undefined): Promise<UploadedFile> {
  const { media, dataDir } = services.config;
  const maxBytes = Math.max(...Object.values(media.maxBytes));
  const signal = AbortSignal.timeout(media.importTimeoutMs);
  let response: Awaited<ReturnType<GuardedHttpClient['open']>>;
  try {
    response = await clientFor(services).open(url, {
      maxRedirects: MAX_REDIRECTS,
      signal,
      headers: { accept: 'image/*, video/*, audio/*, application/pdf, */*;q=0.1' },
    });
  } catch (error) {
    throw fetchFailed(transportDetail(error, media.importTimeoutMs));
  }
  if (response.status < 200 || response.status > 299) {
    discardBody(response.body);
    throw fetchFailed(`it answered HTTP ${response.status}, not 200 with the file.`);
  }
  const declared = Number(response.headers['content-length']);
  if (declared > maxBytes) {
    discardBody(response.body);
    throw new MediaRejectedError(
      'too_large',
      `The file at the URL is ${formatBytes(declared)}; no file may be larger than ${formatBytes(maxBytes)}.`,
      'body/url',
    );
  }
  try {
    const file = await spool(response.body, mediaFolders(dataDir).tmp, maxBytes, signal);
    return { ...file, filename: filename ?? lastSegment(url) };
  } catch (error) {
    if (error instanceof SpoolLimitError) {
      throw new MediaRejectedError(
        'too_large',
        `The file at the URL is larger than ${formatBytes(maxBytes)}, the most any file may be.`,
        'body/url',
      );
    }
    const timedOut = signal.aborted || (error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError';
    throw fetchFailed(
      timedOut
        ? transportDetail(new TransportError('timeout', 'timeout'), media.importTimeoutMs)
        : `the answer broke off (${(error as Error).message}).`,
    );
  }
}
