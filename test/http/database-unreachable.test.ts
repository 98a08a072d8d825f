import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createDatabaseIfMissing } from '../../src/db/embedded.js';
import { adminUrl, TEMPLATE_DATABASE, withDatabase } from '../fixtures.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { type CuttableLink, cuttableLink } from '../support/net.js';

/** The service reaches its database through a link the test cuts, as a network failure or a stopped server would. */
describe('while the database is unreachable', () => {
  let link: CuttableLink;
  let app: TestApp;
  before(async () => {
    const database = `t_${randomBytes(6).toString('hex')}`;
    await createDatabaseIfMissing(adminUrl(), database, TEMPLATE_DATABASE);
    const server = new URL(adminUrl());
    const socketDir = server.searchParams.get('host');
    link = await cuttableLink(
      socketDir ? { path: join(socketDir, `.s.PGSQL.${server.port}`) } : { host: server.hostname, port: Number(server.port) },
    );
    const url = new URL(withDatabase(adminUrl(), database));
    url.searchParams.delete('host');
    url.host = `127.0.0.1:${link.port}`;
    app = await startTestApp({ role: 'api', databaseUrl: url.toString(), publicRateLimit: { points: 3, windowSeconds: 60 } });
  });
  after(async () => {
    link?.reconnect();
    await app?.close();
    await link?.close();
  });

  it('answers /health (503, the database failing), counting the address in this process until its budget is spent', async () => {
    link.cut();
    for (const remaining of ['2', '1', '0']) {
      const health = await app.api.get('/health');
      expect(health.status).to.equal(503);
      expect(health.body.checks.database.status).to.equal('failing');
      expect(health.headers.get('ratelimit-limit')).to.equal('3');
      expect(health.headers.get('ratelimit-remaining')).to.equal(remaining);
    }
    const refused = await app.api.get('/health');
    expect(refused.status).to.equal(429);
    expect(refused.body.code).to.equal('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
  });
});
