import { expect } from 'chai';
import { AddressGuard } from '../../src/lib/address-guard.js';

describe('AddressGuard — IPv6 addresses that carry an IPv4 address are judged by that IPv4 address', () => {
  const guard = new AddressGuard();

  it('refuses every embedding of a loopback, private or link-local IPv4 address', () => {
    const refused = [
      '::7f00:1',
      '::127.0.0.1',
      '::a9fe:a9fe',
      '::10.0.0.1', // IPv4-compatible, ::/96
      '::ffff:7f00:1',
      '::ffff:169.254.169.254', // IPv4-mapped, ::ffff:0:0/96
      '::ffff:0:a00:1', // IPv4-translated, ::ffff:0:0:0/96
      '2002:7f00:1::',
      '2002:a9fe:a9fe::1',
      '2002:c0a8:101::5', // 6to4, 2002::/16
      '64:ff9b::7f00:1',
      '64:ff9b::169.254.169.254',
      '64:ff9b::a00:1', // NAT64, 64:ff9b::/96
      '64:ff9b:1::a00:1', // local-use NAT64, 64:ff9b:1::/48: a translator inside the operator's network
      '2001:0:5db8:d822:0:ffff:80ff:fffe', // Teredo to client 127.0.0.1 (stored inverted) through a public server
      '2001:0:a00:1:0:ffff:a2cb:d522', // Teredo through server 10.0.0.1
    ];
    for (const address of refused) expect(guard.isAllowed(address), address).to.equal(false);
  });

  it('allows the same forms around a public IPv4 address', () => {
    const allowed = [
      '::ffff:93.184.216.34',
      '::5db8:d822',
      '2002:5db8:d822::1',
      '64:ff9b::93.184.216.34',
      '2001:0:5db8:d822:0:ffff:a2cb:d522',
    ];
    for (const address of allowed) expect(guard.isAllowed(address), address).to.equal(true);
  });

  it('an operator-allowed IPv4 range covers its IPv6 embeddings too', () => {
    const local = new AddressGuard(['127.0.0.0/8']);
    for (const address of ['::ffff:127.0.0.1', '::7f00:1', '2002:7f00:1::', '64:ff9b::7f00:1'])
      expect(local.isAllowed(address), address).to.equal(true);
    expect(local.isAllowed('::a00:1')).to.equal(false);
  });
});
