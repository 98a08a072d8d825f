import ipaddr from 'ipaddr.js';
import { AddressGuard } from './address-guard.js';

/** Names only a local network resolves (RFC 6761, 6762, 8375 and the usual private suffixes). */
const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.lan', '.home.arpa'];

/**
 * Why a platform on the internet could not fetch from `url`, or null when it could: a host that is this machine,
 * a private network's address or a name only a local network resolves (judged without DNS, from the URL alone),
 * or `http` where the platform fetches only over HTTPS.
 */
export function unreachableFromInternet(url: string, options: { https: boolean }): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${url} is not a URL`;
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (ipaddr.isValid(host)) {
    if (!new AddressGuard().isAllowed(host)) return `${host} is not a public address (${ipaddr.parse(host).range()})`;
  } else if (host === 'localhost' || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return `${host} is a name only this machine or its network resolves`;
  } else if (!host.includes('.')) {
    return `${host} is a name only a local network resolves`;
  }
  if (options.https && parsed.protocol !== 'https:') return `${parsed.origin} is not HTTPS, which the platform requires`;
  return null;
}
