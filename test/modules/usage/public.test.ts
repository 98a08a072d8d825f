import { expect } from 'chai';
import { OPERATIONS } from '../../../generated/operations.js';
import { connect } from '../../../src/db/database.js';
import { adminUrl } from '../../fixtures.js';
import { startTestApp } from '../../support/app.js';
import { describeApi } from '../../support/harness.js';

describeApi('public routes', { owner: false }, (t) => {
  it('getHealth — GET /health reports the database, the scheduler and the version', async () => {
    const response = await t.app.api.get('/health');
    expect(response.status).to.equal(200);
    expect(response.body.status).to.equal('ok');
    expect(response.body.checks.database.status).to.equal('ok');
    expect(response.body.checks.scheduler.status).to.equal('ok');
    expect(response.body.version).to.equal(t.app.services.config.version);
  });

  it('getHealth answers 503 degraded when the database is gone', async () => {
    const broken = await startTestApp();
    const database = new URL(broken.services.config.databaseUrl!).pathname.slice(1);
    const admin = connect(adminUrl(), 1);
    try {
      // The server refuses the app's database and ends its sessions: what a failover or an outage looks like.
      await admin.raw(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS false`);
      await admin.raw('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?', [database]);
      const response = await broken.api.get('/health');
      expect(response.status).to.equal(503);
      expect(response.body.checks.database.status).to.equal('failing');
    } finally {
      await admin.raw(`ALTER DATABASE ${database} WITH ALLOW_CONNECTIONS true`);
      await admin.destroy();
      await broken.close();
    }
  });

  it('getLlmsTxt — GET /llms.txt lists every operation with its method, path and auth', async () => {
    const response = await t.app.api.get('/llms.txt');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/plain/);
    for (const operation of OPERATIONS) {
      expect(response.text).to.include(`- ${operation.method} ${operation.path}: `);
    }
    expect(response.text).to.include("- GET /health: Check the service's health (auth: public)");
    expect(response.text).to.include('- POST /api-keys: Create an API key (auth: session)');
  });

  it('getOpenApiDocument — GET /openapi.json is the bundled contract', async () => {
    const response = await t.app.api.get('/openapi.json');
    expect(response.status).to.equal(200);
    expect(response.body.openapi).to.equal('3.1.0');
    expect(Object.keys(response.body.paths)).to.include('/hooks/{id}/deliveries');
  });

  it('getDocs — GET /docs is a self-contained Redoc page that loads nothing from elsewhere', async () => {
    const response = await t.app.api.get('/docs');
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.match(/^text\/html/);
    expect(response.text).to.include('Socialgate API');
    expect(response.text).to.not.match(/<script[^>]+src=["']https?:/);
    expect(response.text).to.not.match(/<link[^>]+href=["']https?:/);
  });
});
