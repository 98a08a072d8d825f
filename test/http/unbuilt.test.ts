import { expect } from 'chai';
import { once } from 'node:events';
import type { AddressInfo, Server } from 'node:net';
import Koa from 'koa';
import { bodyMiddleware } from '../../src/http/body.js';
import { problemMiddleware } from '../../src/http/problem.js';
import { routeMiddleware } from '../../src/http/route.js';
import { unbuiltMiddleware } from '../../src/http/unbuilt.js';
import { validationMiddleware } from '../../src/http/validate.js';
import { describeApi } from '../support/harness.js';

/**
 * Every operation of today's contract has a handler, so the service itself answers no 501. An operation written into
 * the contract before its handler (contract first) meets unbuiltMiddleware: these tests put a built operation in its
 * list, in the order createApp uses, to show what a caller of such an operation would see. The 501 is not in the
 * contract for a built operation, so the answers are read as plain HTTP.
 */
describeApi('unbuiltMiddleware — an operation in the contract that no area handles yet', { owner: false }, (t) => {
  let server: Server;
  let url: string;

  before('a pipeline with createProfile and listProfiles marked unbuilt', async () => {
    const { contract, logger, config } = t.app.services;
    const app = new Koa();
    app.silent = true;
    app.use(problemMiddleware(logger, config.jsonBodyLimit));
    app.use(routeMiddleware(contract));
    app.use(unbuiltMiddleware(['createProfile', 'listProfiles']));
    app.use(bodyMiddleware(config.jsonBodyLimit, { maxBytes: 1024, tmpDir: config.dataDir }));
    app.use(validationMiddleware(contract));
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => server?.close());

  async function problemOf(response: Response) {
    expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
    return (await response.json()) as { status: number; code: string; detail: string };
  }

  it('answers 501 not_implemented naming the operation, before reading the body or checking it', async () => {
    const response = await fetch(`${url}/profiles`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"notAMember": true, "name": ',
    });
    expect(response.status).to.equal(501);
    const problem = await problemOf(response);
    expect(problem).to.include({ status: 501, code: 'not_implemented' });
    expect(problem.detail).to.include('createProfile');
  });

  it('answers 501 before checking parameters', async () => {
    const response = await fetch(`${url}/profiles?limit=500`);
    expect(response.status).to.equal(501);
    expect(await problemOf(response)).to.include({ code: 'not_implemented' });
  });

  it('lets an operation not in its list through to validation', async () => {
    const response = await fetch(`${url}/auth/signup`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(response.status).to.equal(400);
    expect(await problemOf(response)).to.include({ code: 'validation_failed' });
  });
});
