import { expect } from 'chai';
import { describeApi } from '../support/harness.js';
import { newOwner } from '../support/owners.js';

describeApi('the request pipeline', (t) => {
  it('stamps every response, errors included, with X-Request-Id, and quotes it in problems', async () => {
    const ok = await t.app.api.get('/health');
    const problem = await t.app.api.get('/profiles');
    expect(ok.headers.get('x-request-id')).to.match(/^req_[0-9a-z]{26}$/);
    expect(problem.headers.get('x-request-id')).to.equal(problem.body.requestId);
  });

  it('answers an unknown route with 404 route_not_found as problem+json', async () => {
    const response = await t.app.api.get('/no/such/route', { token: t.owner.key });
    expect(response.status).to.equal(404);
    expect(response.headers.get('content-type')).to.match(/^application\/problem\+json/);
    expect(response.body).to.include({ code: 'route_not_found', status: 404, type: 'https://socialgate.dev/problems/route_not_found' });
  });

  it('answers a wrong method with 405 method_not_allowed and an Allow header', async () => {
    const response = await t.app.api.request('PUT', '/profiles', { token: t.owner.key });
    expect(response.status).to.equal(405);
    expect(response.body.code).to.equal('method_not_allowed');
    expect(response.headers.get('allow')?.split(', ').sort()).to.deep.equal(['GET', 'POST']);
  });

  it('answers malformed JSON with 400 malformed_json', async () => {
    const response = await t.app.api.post('/profiles', {
      token: t.owner.key,
      rawBody: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(response.status).to.equal(400);
    expect(response.body.code).to.equal('malformed_json');
  });

  it('refuses a body of another content type with 415, naming the one the route takes', async () => {
    const response = await t.app.api.post('/profiles', {
      token: t.owner.key,
      rawBody: 'name=x',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(response.status).to.equal(415);
    expect(response.body).to.include({ code: 'unsupported_media_type', detail: 'Send the body as application/json.' });
  });

  it('answers a missing body on a route that needs one with 400 naming the body', async () => {
    const response = await t.app.api.post('/profiles', { token: t.owner.key });
    expect(response.status).to.equal(400);
    expect(response.body.errors).to.deep.equal([{ path: 'body', message: 'is required', code: 'required' }]);
  });

  it('refuses members the contract does not name, so ownerId cannot be mass-assigned', async () => {
    const response = await t.app.api.post('/profiles', {
      token: t.owner.key,
      body: { name: 'x', ownerId: 'own_01jd3y6w7q5v8k0n2b4c6e8g1h' },
    });
    expect(response.status).to.equal(400);
    expect(response.body.errors).to.deep.include({
      path: 'body/ownerId',
      message: 'unknown member ownerId',
      code: 'additionalProperties',
    });
  });

  it('validates query parameters with their types', async () => {
    const response = await t.app.api.get('/profiles?limit=500', { token: t.owner.key });
    expect(response.status).to.equal(400);
    expect(response.body.errors[0].path).to.equal('query/limit');
  });

  it('refuses a body over the JSON limit with 413 payload_too_large', async () => {
    const response = await t.app.api.post('/profiles', {
      token: t.owner.key,
      body: { name: 'x', description: 'y'.repeat(2 * 1024 * 1024) },
    });
    expect(response.status).to.equal(413);
    expect(response.body.code).to.equal('payload_too_large');
  });

  describe('Idempotency-Key', () => {
    it('replays the first response for the same key and body, and creates nothing twice', async () => {
      const headers = { 'Idempotency-Key': 'create-profile-1' };
      const first = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'once' }, headers });
      const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'once' }, headers });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.headers.get('idempotent-replayed')).to.equal('true');
      expect(second.body).to.deep.equal(first.body);
      const rows = await t.app.services.db('profiles').where({ ownerId: t.owner.ownerId, name: 'once' });
      expect(rows).to.have.length(1);
    });

    it('answers 422 idempotency_key_reused for the same key with another body', async () => {
      const headers = { 'Idempotency-Key': 'create-profile-2' };
      await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'first' }, headers });
      const reused = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' }, headers });
      expect(reused.status).to.equal(422);
      expect(reused.body.code).to.equal('idempotency_key_reused');
    });

    it('answers 409 idempotency_key_in_use while the first request still runs', async () => {
      const headers = { 'Idempotency-Key': 'running-key' };
      await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'x' }, headers });
      // As if the first request had not finished yet.
      await t.app.services.db('idempotencyKeys').where({ ownerId: t.owner.ownerId, key: 'running-key' }).update({ state: 'running' });
      const response = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'x' }, headers });
      expect(response.status).to.equal(409);
      expect(response.body.code).to.equal('idempotency_key_in_use');
    });

    it('keeps keys per owner', async () => {
      const other = await newOwner(t.app.api);
      const headers = { 'Idempotency-Key': 'shared-key' };
      const mine = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'same' }, headers });
      const theirs = await t.app.api.post('/profiles', { token: other.key, body: { name: 'same' }, headers });
      expect(theirs.headers.get('idempotent-replayed')).to.equal(null);
      expect(theirs.body.id).to.not.equal(mine.body.id);
    });
  });
});

const limits = { rateLimit: { points: 3, windowSeconds: 60 }, publicRateLimit: { points: 2, windowSeconds: 60 } };

// Every request counts here: the tests make their own owner.
describeApi('the request pipeline — rate limits', { settings: limits, owner: false }, (t) => {
  it('counts per key, sends RateLimit headers, and answers 429 rate_limited with Retry-After', async () => {
    const someone = await newOwner(t.app.api);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i += 1) {
      last = await t.app.api.get('/profiles', { token: someone.key });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('ratelimit-limit')).to.equal('3');
        expect(last.headers.get('ratelimit-remaining')).to.equal('2');
      }
    }
    expect(statuses).to.deep.equal([200, 200, 200, 429]);
    expect(last!.body.code).to.equal('rate_limited');
    expect(Number(last!.headers.get('retry-after'))).to.be.within(1, 60);
    const otherKey = await t.app.api.post('/api-keys', { token: someone.session, body: { name: 'fresh' } });
    expect((await t.app.api.get('/profiles', { token: otherKey.body.key })).status).to.equal(200);
  });

  it('counts public routes per client address', async () => {
    const first = await t.app.api.get('/llms.txt');
    const remaining = Number(first.headers.get('ratelimit-remaining'));
    const statuses = [];
    for (let i = 0; i <= remaining; i += 1) statuses.push((await t.app.api.get('/health')).status);
    expect(statuses.pop()).to.equal(429);
    expect(statuses.every((status) => status === 200)).to.equal(true);
  });
});
