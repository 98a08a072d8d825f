import { expect } from 'chai';
import { connect } from '../../src/db/database.js';
import { authenticate } from '../../src/modules/auth/authenticate.js';
import { startTestApp } from '../support/app.js';
import { describeApi } from '../support/harness.js';
import type { TestOwner } from '../support/owners.js';

const limits = { rateLimit: { points: 3, windowSeconds: 60 }, publicRateLimit: { points: 1000, windowSeconds: 60 } };

/** The per-principal limit, counted in the statement that authenticates. */
describeApi('the per-key and per-session rate limit', { settings: limits }, (t) => {
  async function keyIdOf(owner: TestOwner): Promise<string> {
    const row = await t.app.services.db('apiKeys').where({ ownerId: owner.ownerId }).first();
    return row.id as string;
  }

  async function storedPoints(id: string): Promise<number | undefined> {
    return (await t.app.services.db('rateLimits').where({ key: `p:${id}` }).first())?.points;
  }

  it('counts a session across routes and refuses it once its budget is spent', async () => {
    const { owner } = t; // signed up with two requests of its session: a key and a profile
    const third = await t.app.api.get('/profiles', { token: owner.session });
    expect(third.status).to.equal(200);
    expect(third.headers.get('ratelimit-remaining')).to.equal('0');
    const fourth = await t.app.api.get('/profiles', { token: owner.session });
    expect(fourth.status).to.equal(429);
    expect(fourth.headers.get('ratelimit-remaining')).to.equal('0');
  });

  it('does not count a key that a session-only route refuses, nor a revoked key', async () => {
    const { owner } = t;
    const keyId = await keyIdOf(owner);
    for (let i = 0; i < 4; i += 1) expect((await t.app.api.get('/api-keys', { token: owner.key })).status).to.equal(403);
    expect(await storedPoints(keyId)).to.equal(undefined);
    const first = await t.app.api.get('/profiles', { token: owner.key });
    expect(first.headers.get('ratelimit-remaining')).to.equal('2');
    expect((await t.app.api.delete(`/api-keys/${keyId}`, { token: owner.session })).status).to.equal(204);
    for (let i = 0; i < 4; i += 1) expect((await t.app.api.get('/profiles', { token: owner.key })).body.code).to.equal('token_revoked');
    expect(await storedPoints(keyId)).to.equal(1);
  });

  it('stops counting a key over its budget (no write) until its window ends, then starts over', async () => {
    const { owner } = t;
    const keyId = await keyIdOf(owner);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await t.app.api.get('/profiles', { token: owner.key })).status);
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429, 429]);
    expect(await storedPoints(keyId)).to.equal(4);
    await t.app.services.db('rateLimits').where({ key: `p:${keyId}` }).update({ expire: Date.now() - 1 });
    const fresh = await t.app.api.get('/profiles', { token: owner.key });
    expect(fresh.status).to.equal(200);
    expect(fresh.headers.get('ratelimit-remaining')).to.equal('2');
    expect(Number(fresh.headers.get('ratelimit-reset'))).to.be.within(59, 60);
  });

  it('shares one budget between processes on the same database', async () => {
    const other = await startTestApp({ ...limits, databaseUrl: t.app.services.config.databaseUrl });
    try {
      const { owner } = t;
      const statuses = [
        (await t.app.api.get('/profiles', { token: owner.key })).status,
        (await other.api.get('/profiles', { token: owner.key })).status,
        (await t.app.api.get('/profiles', { token: owner.key })).status,
        (await other.api.get('/profiles', { token: owner.key })).status,
      ];
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
    } finally {
      await other.close();
    }
  });

  it('relaxes synchronous_commit for the counting transaction only, not for the connection', async () => {
    const { owner } = t;
    const single = connect(t.app.services.config.databaseUrl!, 1);
    try {
      const { window } = await authenticate(single, `Bearer ${owner.key}`, { keyPrefix: 'p', points: 3, windowMs: 60_000 });
      expect(window?.consumed).to.equal(1);
      const { rows } = await single.raw<{ rows: Array<{ setting: string }> }>("SELECT current_setting('synchronous_commit') AS setting");
      expect(rows[0]!.setting).to.equal('on');
    } finally {
      await single.destroy();
    }
  });
});
