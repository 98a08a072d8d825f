import { expect } from 'chai';
import { AddressGuard } from '../../src/lib/address-guard.js';
import { GuardedHttpClient, TransportError } from '../../src/lib/guarded-http.js';
import { Receiver } from '../support/receiver.js';

/** The transport failure a call ends in (it must end in one). */
async function failureOf(call: Promise<unknown>): Promise<TransportError> {
  try {
    await call;
  } catch (error) {
    expect(error).to.be.instanceOf(TransportError);
    return error as TransportError;
  }
  return expect.fail('the call succeeded');
}

describe('GuardedHttpClient.post — one webhook POST', () => {
  let receiver: Receiver;
  const guard = new AddressGuard(['127.0.0.0/8']);
  before(async () => {
    receiver = await Receiver.start();
  });
  after(() => receiver.close());

  function client(connections?: number): GuardedHttpClient {
    return new GuardedHttpClient(guard, { caFile: receiver.caFile, ...(connections ? { connections } : {}) });
  }

  it('reads the status, the Retry-After and the first KiB of the answer, and sends the body as given', async () => {
    const inbox = receiver.inbox();
    const long = 'é'.repeat(3000);
    inbox.reply = (request) => (request.path === '/busy' ? { status: 503, headers: { 'Retry-After': '7' }, body: long } : { status: 204 });
    const http = client();
    try {
      const busy = await http.post(`${inbox.url}/busy`, { 'Content-Type': 'application/json' }, '{"a":"ü"}', 5000);
      expect(busy).to.deep.equal({ status: 503, retryAfter: '7', snippet: 'é'.repeat(1024) });
      expect(await http.post(`${inbox.url}/ok`, {}, '{}', 5000)).to.deep.equal({ status: 204, retryAfter: undefined, snippet: '' });
      expect(inbox.received.map((request) => request.rawBody)).to.deep.equal(['{"a":"ü"}', '{}']);
    } finally {
      await http.close();
    }
  });

  it('gives up at the deadline on an endpoint that does not answer', async () => {
    const inbox = receiver.inbox();
    inbox.reply = () => ({ status: 200, hang: true });
    const http = client();
    try {
      const started = performance.now();
      expect((await failureOf(http.post(`${inbox.url}/slow`, {}, '{}', 300))).kind).to.equal('timeout');
      expect(performance.now() - started).to.be.within(250, 5000);
    } finally {
      await http.close();
    }
  });

  it('never sends a request whose deadline passed while it waited for a connection', async () => {
    const inbox = receiver.inbox();
    inbox.reply = (request) => (request.path === '/slow' ? { status: 200, hang: true } : { status: 204 });
    // One connection: the second request waits behind the first, which is not answered.
    const http = client(1);
    try {
      const slow = failureOf(http.post(`${inbox.url}/slow`, {}, '{}', 1500));
      await inbox.waitFor(1);
      expect((await failureOf(http.post(`${inbox.url}/late`, {}, '{}', 200))).kind).to.equal('timeout');
      expect((await slow).kind).to.equal('timeout');
      // Queued after the late one: once it is answered, the late one was dropped or sent.
      expect((await http.post(`${inbox.url}/after`, {}, '{}', 5000)).status).to.equal(204);
      expect(inbox.received.map((request) => request.path)).to.deep.equal(['/slow', '/after']);
    } finally {
      await http.close();
    }
  });

  it('refuses a private address written in the URL without connecting', async () => {
    const inbox = receiver.inbox();
    const http = new GuardedHttpClient(new AddressGuard(), { caFile: receiver.caFile });
    try {
      expect((await failureOf(http.post(`${inbox.url}/x`, {}, '{}', 2000))).kind).to.equal('address_not_allowed');
      expect((await failureOf(http.post('https://[::ffff:7f00:1]:9/x', {}, '{}', 2000))).kind).to.equal('address_not_allowed');
      expect(inbox.received).to.have.length(0);
    } finally {
      await http.close();
    }
  });
});
