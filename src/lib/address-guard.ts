import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export class AddressNotAllowedError extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor(readonly address: string, readonly host: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
  }
}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Server-side request forgery guard: outgoing requests to user-given URLs may reach public unicast addresses
 * only — not loopback, private, link-local (cloud metadata), CGNAT, multicast or reserved ranges — unless an
 * operator allows a range (self-hosting on a private network; the tests' local receiver).
 */
export class AddressGuard {
  private readonly allowed: Cidr[];

  constructor(allowedCidrs: string[] = []) {
    this.allowed = allowedCidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  isAllowed(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    let parsed = ipaddr.parse(address);
    // ::ffff:10.0.0.1 is 10.0.0.1 on the wire.
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
    if (this.allowed.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits))) return true;
    return parsed.range() === 'unicast';
  }

  /** Every address the host resolves to must be allowed; an IP literal is checked as it is. */
  async check(host: string): Promise<void> {
    const bare = host.replace(/^\[|\]$/g, '');
    const addresses = isIP(bare) ? [bare] : (await resolveAll(bare)).map((a) => a.address);
    const refused = addresses.find((address) => !this.isAllowed(address));
    if (refused) throw new AddressNotAllowedError(refused, host);
  }

  /**
   * A `lookup` for sockets: resolves, and hands the connection only allowed addresses, so the address
   * actually connected to is the one checked, whatever DNS answered at save time.
   */
  readonly lookup = (hostname: string, options: { family?: number | string; all?: boolean }, callback: (...args: any[]) => void): void => {
    dnsLookup(hostname, { all: true, family: typeof options.family === 'number' ? options.family : 0 }, (error, addresses) => {
      if (error) return callback(error);
      const refused = addresses.find((a) => !this.isAllowed(a.address));
      if (refused) return callback(new AddressNotAllowedError(refused.address, hostname));
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return first ? callback(null, first.address, first.family) : callback(new Error(`${hostname} has no address`));
    });
  };
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))));
}
