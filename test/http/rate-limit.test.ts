import { expect } from 'chai';
import { connect } from '../../src/db/database.js';
import { SharedWindows } from '../../src/modules/auth/shared-window.js';
import { createLogger } from '../../src/lib/logger.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { newOwner, type TestOwner } from '../support/owners.js';

/** The per-principal limit, shared by the processes on one database. */
describe('the per-key and per-session rate limit', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ rateLimit: { points: 3, windowSeconds: 60 }, publicRateLimit: { points: 1000, windowSeconds: 60 } });
  });
  after(async () => {
    await app.close();
  });

  async function keyIdOf(owner: TestOwner): Promise<string> {
    const row = await app.services.db('apiKeys').where({ ownerId: owner.ownerId }).first();
    return row.id as string;
  }

  async function storedPoints(id: string): Promise<number | undefined> {
    return (
      await app.services
        .db('rateLimits')
        .where({ key: `p:${id}` })
        .first()
    )?.points;
  }

  it('counts a session across routes and refuses it once its budget is spent', async () => {
    const owner = await newOwner(app.api); // two requests with the session: a key and a profile
    const third = await app.api.get('/profiles', { token: owner.session });
    expect(third.status).to.equal(200);
    expect(third.headers.get('ratelimit-remaining')).to.equal('0');
    const fourth = await app.api.get('/profiles', { token: owner.session });
    expect(fourth.status).to.equal(429);
    expect(fourth.headers.get('ratelimit-remaining')).to.equal('0');
  });

  it('does not count a key that a session-only route refuses, nor a revoked key', async () => {
    const owner = await newOwner(app.api);
    const keyId = await keyIdOf(owner);
    for (let i = 0; i < 4; i += 1) expect((await app.api.get('/api-keys', { token: owner.key })).status).to.equal(403);
    expect(await storedPoints(keyId)).to.equal(undefined);
    const first = await app.api.get('/profiles', { token: owner.key });
    expect(first.headers.get('ratelimit-remaining')).to.equal('2');
    expect((await app.api.delete(`/api-keys/${keyId}`, { token: owner.session })).status).to.equal(204);
    for (let i = 0; i < 4; i += 1) expect((await app.api.get('/profiles', { token: owner.key })).body.code).to.equal('token_revoked');
    expect(await storedPoints(keyId)).to.equal(1);
  });

  it('stops counting a key over its budget (no write) until its window ends, then starts over', async () => {
    const owner = await newOwner(app.api);
    const keyId = await keyIdOf(owner);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await app.api.get('/profiles', { token: owner.key })).status);
    expect(statuses).to.deep.equal([200, 200, 200, 429, 429, 429]);
    expect(await storedPoints(keyId)).to.equal(4);
    await app.services
      .db('rateLimits')
      .where({ key: `p:${keyId}` })
      .update({ expire: Date.now() - 1 });
    const fresh = await app.api.get('/profiles', { token: owner.key });
    expect(fresh.status).to.equal(200);
    expect(fresh.headers.get('ratelimit-remaining')).to.equal('2');
    expect(Number(fresh.headers.get('ratelimit-reset'))).to.be.within(59, 60);
  });

  it('shares one budget between processes on the same database', async () => {
    const other = await startTestApp({
      databaseUrl: app.services.config.databaseUrl,
      rateLimit: { points: 3, windowSeconds: 60 },
      publicRateLimit: { points: 1000, windowSeconds: 60 },
    });
    try {
      const owner = await newOwner(app.api);
      const statuses = [
        (await app.api.get('/profiles', { token: owner.key })).status,
        (await other.api.get('/profiles', { token: owner.key })).status,
        (await app.api.get('/profiles', { token: owner.key })).status,
        (await other.api.get('/profiles', { token: owner.key })).status,
      ];
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
    } finally {
      await other.close();
    }
  });

  it('writes the requests it admitted from memory when it stops, before its pool closes', async () => {
    const windows = new SharedWindows(app.services.db, { keyPrefix: 'p', points: 1000, windowMs: 60_000 }, createLogger('silent'));
    const id = `stopping-${Date.now()}`;
    const consumed: number[] = [];
    for (let i = 0; i < 4; i += 1) consumed.push((await windows.count(id)).consumed);
    expect(consumed).to.deep.equal([1, 2, 3, 4]);
    expect(await storedPoints(id), 'the first asked the database; the others waited for a batch').to.equal(1);
    await windows.stop();
    expect(await storedPoints(id)).to.equal(4);
  });

  it('relaxes synchronous_commit for the counting transaction only, not for the connection', async () => {
    const owner = await newOwner(app.api);
    const single = connect(app.services.config.databaseUrl!, 1);
    try {
      const windows = new SharedWindows(single, { keyPrefix: 'p', points: 3, windowMs: 60_000 }, createLogger('silent'));
      expect((await windows.count(await keyIdOf(owner))).consumed).to.equal(1);
      const { rows } = await single.raw<{ rows: Array<{ setting: string }> }>("SELECT current_setting('synchronous_commit') AS setting");
      expect(rows[0]!.setting).to.equal('on');
    } finally {
      await single.destroy();
    }
  });
});

/** The per-address limit of public routes, in the same table. */
describe('the per-address rate limit', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp({ publicRateLimit: { points: 2, windowSeconds: 60 } });
  });
  after(async () => {
    await app.close();
  });

  it('refuses an address over its budget from memory until its window ends, without asking the database again', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await app.api.get('/health')).status);
    expect(statuses).to.deep.equal([200, 200, 429]);
    const stored = app.services.db('rateLimits').where({ key: 'ip:127.0.0.1' });
    expect((await stored.clone().first())?.points).to.equal(3);
    await stored.clone().delete();
    const refused = await app.api.get('/health');
    expect(refused.status).to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(await stored.clone().first()).to.equal(undefined);
  });

  it("counts platforms' webhooks apart, against their own budget: a platform is not refused for a person's requests", async () => {
    const limited = await startTestApp({
      publicRateLimit: { points: 2, windowSeconds: 60 },
      platformWebhookRateLimit: { points: 5, windowSeconds: 60 },
    });
    try {
      // Unsigned: refused by the receiver (401), yet counted against the webhooks' budget, never the public routes'.
      const webhook = () =>
        limited.api.post('/webhooks/botchat', { body: { update_id: 1 }, headers: { 'X-Telegram-Bot-Api-Secret-Token': 'acc_x-y' } });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await webhook()).status);
      expect(statuses).to.deep.equal([401, 401, 401, 401, 401, 429]);
      expect((await limited.api.get('/health')).status).to.equal(200);
      expect((await limited.api.get('/health')).status).to.equal(200);
      expect((await limited.api.get('/health')).status).to.equal(429);
    } finally {
      await limited.close();
    }
  });
});
