import { expect } from 'chai';
import { mock } from 'node:test';
import pg from 'pg';
import { startTestApp, type TestApp } from '../support/app.js';
import { newOwner, type TestOwner } from '../support/owners.js';
import { until } from '../support/wait.js';

/** Two API processes on one database, each with its own cache of principals. */
describe('two API processes on one database', () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await startTestApp();
    b = await startTestApp({ databaseUrl: a.services.config.databaseUrl });
  });
  after(async () => {
    mock.timers.reset();
    await b?.close();
    await a?.close();
  });

  async function keyIdOf(owner: TestOwner): Promise<string> {
    return ((await a.services.db('apiKeys').where({ ownerId: owner.ownerId }).first('id')) as { id: string }).id;
  }

  async function lastUsedAt(owner: TestOwner, keyId: string): Promise<string | null> {
    const listed = await a.api.get('/api-keys', { token: owner.session });
    return listed.body.data.find((key: { id: string }) => key.id === keyId).lastUsedAt as string | null;
  }

  it('listens on one connection per process, for its principal cache and all its workers', async () => {
    const { rows } = await a.services.db.raw(
      "SELECT application_name AS name, count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE '%listening' GROUP BY 1",
    );
    expect(a.workers.size, 'the processes run their workers').to.be.greaterThan(5);
    expect(rows).to.deep.equal([{ name: 'socialgate listening', n: 2 }]);
  });

  it('refuses a key in one process as soon as the other has revoked it', async () => {
    const owner = await newOwner(a.api);
    for (const app of [a, b]) expect((await app.api.get('/profiles', { token: owner.key })).status).to.equal(200);
    expect((await a.api.delete(`/api-keys/${await keyIdOf(owner)}`, { token: owner.session })).status).to.equal(204);
    for (const app of [b, a]) {
      const refused = await app.api.get('/profiles', { token: owner.key });
      expect(refused.status).to.equal(401);
      expect(refused.body.code).to.equal('token_revoked');
    }
  });

  it('refuses a session in one process as soon as it was logged out in the other', async () => {
    const owner = await newOwner(a.api);
    expect((await b.api.get('/auth/session', { token: owner.session })).status).to.equal(200);
    expect((await a.api.post('/auth/logout', { token: owner.session })).status).to.equal(204);
    const refused = await b.api.get('/profiles', { token: owner.session });
    expect(refused.status).to.equal(401);
    expect(refused.body.code).to.equal('token_revoked');
  });

  it('answers a logout only once every listening process has said it dropped the session, a slow one included', async () => {
    const owner = await newOwner(a.api);
    // A third process's listener that is slow to hear: it says so only when the test lets it.
    const slow = new pg.Client({ connectionString: a.services.config.databaseUrl });
    const announced: string[] = [];
    const heardFrom = new Set<number>();
    slow.on('notification', ({ channel, payload, processId }) => {
      if (channel === 'socialgate_principals') announced.push(payload ?? '');
      else heardFrom.add(processId);
    });
    await slow.connect();
    try {
      await slow.query('LISTEN socialgate_principals; LISTEN socialgate_principals_heard');
      await slow.query("SET application_name = 'socialgate listening'");
      const { rows } = await slow.query(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'socialgate listening' AND pid <> pg_backend_pid()",
      );
      const others = rows.map((row: { pid: number }) => row.pid);
      expect(others).to.have.length(2);

      const order: string[] = [];
      const sessionId = (await b.api.get('/auth/session', { token: owner.session })).body.session.id as string;
      const loggedOut = a.api.post('/auth/logout', { token: owner.session }).then((response) => {
        order.push('answered');
        return response;
      });
      await until(() => announced.includes(sessionId) && others.every((pid) => heardFrom.has(pid)), {
        what: 'both API processes to say they heard the logout',
      });
      // A request that process a answers after it heard both: the logout is still not answered.
      expect((await a.api.get('/profiles', { token: owner.key })).status).to.equal(200);
      expect(order).to.deep.equal([]);
      order.push('slow one heard');
      await slow.query("SELECT pg_notify('socialgate_principals_heard', $1)", [sessionId]);
      expect((await loggedOut).status).to.equal(204);
      expect(order).to.deep.equal(['slow one heard', 'answered']);
    } finally {
      await slow.end();
    }
  });

  it('refuses a key revoked directly in the database in both processes', async () => {
    const owner = await newOwner(a.api);
    const keyId = await keyIdOf(owner);
    for (const app of [a, b]) expect((await app.api.get('/profiles', { token: owner.key })).status).to.equal(200);
    await a.services.principals.change(keyId, () => a.services.db('apiKeys').where({ id: keyId }).update({ revokedAt: new Date() }));
    for (const app of [a, b]) expect((await app.api.get('/profiles', { token: owner.key })).body.code).to.equal('token_revoked');
  });

  it('forgets every principal when many rows are deleted at once (the purge of expired sessions)', async () => {
    const owner = await newOwner(a.api);
    expect((await b.api.get('/auth/session', { token: owner.session })).status).to.equal(200);
    const { db } = a.services;
    const rows = Array.from({ length: 150 }, (_, i) => ({
      id: `sess_purge${String(i).padStart(22, '0')}`,
      ownerId: owner.ownerId,
      tokenHash: `purge-${owner.ownerId}-${i}`,
      expiresAt: new Date(),
    }));
    await db('sessions').insert(rows);
    await b.services.principals.change('*', () => db('sessions').where({ ownerId: owner.ownerId }).delete());
    const refused = await b.api.get('/profiles', { token: owner.session });
    expect(refused.status).to.equal(401);
    expect(refused.body.code).to.equal('invalid_token');
  });

  it('keeps lastUsedAt within a minute of the last use, whichever process served it', async () => {
    const owner = await newOwner(a.api);
    const keyId = await keyIdOf(owner);
    const start = Date.now();
    mock.timers.enable({ apis: ['Date'], now: start });
    try {
      await a.api.get('/profiles', { token: owner.key });
      expect(await lastUsedAt(owner, keyId)).to.equal(new Date(start).toISOString());
      mock.timers.tick(30_000); // within the resolution: not written again
      await b.api.get('/profiles', { token: owner.key });
      await a.api.get('/profiles', { token: owner.key });
      expect(await lastUsedAt(owner, keyId)).to.equal(new Date(start).toISOString());
      mock.timers.tick(31_000); // 61 s after the recorded use
      await b.api.get('/profiles', { token: owner.key });
      expect(await lastUsedAt(owner, keyId)).to.equal(new Date(start + 61_000).toISOString());
      mock.timers.tick(61_000);
      await a.api.get('/profiles', { token: owner.key });
      expect(await lastUsedAt(owner, keyId)).to.equal(new Date(start + 122_000).toISOString());
    } finally {
      mock.timers.reset();
    }
  });
});
