import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { PlatformError } from '../../src/platforms/errors.js';
import { callPlatform } from '../../src/platforms/http.js';

/** The failure `call` ends in, as a PlatformError. */
async function failureOf(call: Promise<unknown>): Promise<PlatformError> {
  const error = await call.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).to.be.instanceOf(PlatformError);
  return error as PlatformError;
}

describe('callPlatform — one HTTP exchange with a platform', () => {
  let server: Server;
  let base: string;
  const received: Array<{ method: string; url: string; contentType: string | undefined; body: string }> = [];

  before(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, contentType: req.headers['content-type'], body });
        if (req.url === '/hang-up') return req.socket.destroy();
        if (req.url === '/not-json') {
          res.writeHead(502, { 'Content-Type': 'application/json' });
          return res.end('<html>bad gateway</html>');
        }
        if (req.url === '/moved') {
          res.writeHead(302, { Location: '/elsewhere' });
          return res.end();
        }
        res.writeHead(429, { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '30', 'Set-Cookie': ['a=1', 'b=2'] });
        res.end(JSON.stringify({ error: { code: 4 } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends the method, headers and body it is given, and answers the status, the parsed JSON and the headers', async () => {
    const response = await callPlatform<{ error: { code: number } }>(`${base}/send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'text=hello+there',
    });
    expect(received.at(-1)).to.deep.equal({
      method: 'POST',
      url: '/send',
      contentType: 'application/x-www-form-urlencoded',
      body: 'text=hello+there',
    });
    expect(response.status).to.equal(429);
    expect(response.body).to.deep.equal({ error: { code: 4 } });
    expect(response.headers.get('retry-after')).to.equal('30');
    expect(response.headers.getSetCookie()).to.deep.equal(['a=1', 'b=2']);
  });

  it('does not follow a redirect: the platform’s 302 is the answer', async () => {
    const response = await callPlatform(`${base}/moved`);
    expect(response.status).to.equal(302);
    expect(response.headers.get('location')).to.equal('/elsewhere');
    expect(received.at(-1)!.url).to.equal('/moved');
  });

  it('calls a platform that answers JSON it cannot parse transient, with its status', async () => {
    const failure = await failureOf(callPlatform(`${base}/not-json`));
    expect(failure.kind).to.equal('transient');
    expect(failure.details.status).to.equal(502);
  });

  it('calls a request that reached the platform but got no answer transient, not unsent: it may have been acted on', async () => {
    const failure = await failureOf(callPlatform(`${base}/hang-up`, { method: 'POST', body: '{}' }));
    expect(failure.kind).to.equal('transient');
    expect(failure.details.unsent).to.equal(false);
    expect(received.at(-1)!.url).to.equal('/hang-up');
  });

  it('calls a platform that refuses the connection transient and unsent: nothing reached it', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const failure = await failureOf(callPlatform(`http://127.0.0.1:${port}/send`, { method: 'POST', body: '{}' }));
    expect(failure.kind).to.equal('transient');
    expect(failure.details.unsent).to.equal(true);
    expect(failure.message).to.include('ECONNREFUSED');
  });
});
