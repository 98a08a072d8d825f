import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export class AddressNotAllowedError extends Error {
  readonly code = 'EADDRNOTALLOWED';
  constructor(
    readonly address: string,
    readonly host: string,
  ) {
    super(`${host} resolves to ${address}, which is not a public address`);
  }
}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Server-side request forgery guard: outgoing requests to user-given URLs may reach public unicast addresses
 * only — not loopback, private, link-local (cloud metadata), CGNAT, multicast or reserved ranges — unless an
 * operator allows a range (self-hosting on a private network; the tests' local receiver). An IPv6 address that
 * carries an IPv4 address (mapped, compatible, NAT64, 6to4, Teredo) is judged by the IPv4 address.
 */
export class AddressGuard {
  private readonly allowed: Cidr[];

  constructor(allowedCidrs: string[] = []) {
    this.allowed = allowedCidrs.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  isAllowed(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    return this.isAllowedAddress(ipaddr.parse(address));
  }

  private isAllowedAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    if (this.allowed.some(([range, bits]) => range.kind() === address.kind() && address.match(range, bits))) return true;
    if (address.kind() === 'ipv4') return address.range() === 'unicast';
    const carried = carriedIPv4(address as ipaddr.IPv6);
    if (carried === 'private') return false;
    if (carried) return carried.every((inner) => this.isAllowedAddress(inner));
    return address.range() === 'unicast';
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
  readonly lookup = (
    hostname: string,
    options: { family?: number | string; all?: boolean },
    callback: (error: NodeJS.ErrnoException | null, address?: string | LookupAddress[], family?: number) => void,
  ): void => {
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

const ipv4 = (high: number, low: number) => ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4;

/**
 * The IPv4 addresses an IPv6 address carries, whose hosts a packet to it reaches: such an address is as public
 * as they are. `private` for a form that only a translator of the local network serves; null for none.
 */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | 'private' | null {
  const [p0, p1, p2, p3, p4, p5, p6, p7] = address.parts as [number, number, number, number, number, number, number, number];
  const zeroes = (...parts: number[]) => parts.every((part) => part === 0);
  // IPv4-compatible ::/96 (:: and ::1 among them), IPv4-mapped ::ffff:0:0/96, IPv4-translated ::ffff:0:0:0/96.
  if (zeroes(p0, p1, p2, p3, p4) && (p5 === 0 || p5 === 0xffff)) return [ipv4(p6, p7)];
  if (zeroes(p0, p1, p2, p3, p5) && p4 === 0xffff) return [ipv4(p6, p7)];
  // NAT64, well-known prefix 64:ff9b::/96; the local-use prefix 64:ff9b:1::/48 is a translator of the local network.
  if (p0 === 0x64 && p1 === 0xff9b && zeroes(p2, p3, p4, p5)) return [ipv4(p6, p7)];
  if (p0 === 0x64 && p1 === 0xff9b && p2 === 1) return 'private';
  // 6to4 2002::/16: the IPv4 address follows the prefix.
  if (p0 === 0x2002) return [ipv4(p1, p2)];
  // Teredo 2001::/32: the server's IPv4 address, then the client's, stored inverted.
  if (p0 === 0x2001 && p1 === 0) return [ipv4(p2, p3), ipv4(~p6 & 0xffff, ~p7 & 0xffff)];
  return null;
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}
