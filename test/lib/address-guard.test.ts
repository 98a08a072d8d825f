import { expect } from 'chai';
import { AddressGuard } from '../../src/lib/address-guard.js';
import { GuardedHttpClient, TransportError } from '../../src/lib/guarded-http.js';

describe('AddressGuard — the server-side request forgery guard', () => {
  const guard = new AddressGuard();

  it('allows public unicast addresses only', () => {
    const refused = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      'ff02::1',
    ];
    for (const address of refused) expect(guard.isAllowed(address), address).to.equal(false);
    for (const address of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:93.184.216.34']) {
      expect(guard.isAllowed(address), address).to.equal(true);
    }
  });

  it('allows ranges an operator lists', () => {
    const local = new AddressGuard(['127.0.0.0/8', 'fd00::/8']);
    expect(local.isAllowed('127.0.0.1')).to.equal(true);
    expect(local.isAllowed('fd00::5')).to.equal(true);
    expect(local.isAllowed('10.0.0.1')).to.equal(false);
  });

  it('checks what a host name resolves to, not the name', async () => {
    try {
      await guard.check('localhost');
      expect.fail('localhost passed');
    } catch (error) {
      expect((error as Error).message).to.match(/not a public address/);
    }
  });

  it('refuses the connection itself when a name resolves to a private address', async () => {
    const client = new GuardedHttpClient(guard);
    try {
      await client.post('https://localhost:9/', {}, '{}', 2000);
      expect.fail('the request went out');
    } catch (error) {
      expect(error).to.be.instanceOf(TransportError);
      expect((error as TransportError).kind).to.equal('address_not_allowed');
    } finally {
      await client.close();
    }
  });
});
