import { expect } from 'chai';
import { OPERATIONS } from '../../../generated/operations.js';
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
    try {
      await broken.services.db.destroy();
      const response = await broken.api.get('/health');
      expect(response.status).to.equal(503);
      expect(response.body.checks.database.status).to.equal('failing');
    } finally {
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
    expect(response.text).to.include('- GET /health: Check the service\'s health (auth: public)');
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
