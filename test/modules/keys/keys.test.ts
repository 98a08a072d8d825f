import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner } from '../../support/owners.js';

describeApi('API keys — /api-keys', (t) => {
  describe('createApiKey — POST /api-keys', () => {
    it('shows the key once, stores only its hash, and the key authenticates', async () => {
      const created = await t.app.api.post('/api-keys', { token: t.owner.session, body: { name: 'ci' } });
      expect(created.status).to.equal(201);
      expect(created.body.key).to.match(/^sgk_[0-9A-Za-z]{43}$/);
      expect(created.body.prefix).to.equal(created.body.key.slice(0, 8));
      expect(created.body.scope).to.deep.equal({ profiles: null });
      const row = await t.app.services.db('api_keys').where({ id: created.body.id }).first();
      expect(JSON.stringify(row)).to.not.include(created.body.key);
      const listed = await t.app.api.get('/api-keys', { token: t.owner.session });
      expect(JSON.stringify(listed.body)).to.not.include(created.body.key);
      expect((await t.app.api.get('/profiles', { token: created.body.key })).status).to.equal(200);
    });

    it('refuses a profile the owner does not have with 422 unknown_profile', async () => {
      const other = await newOwner(t.app.api);
      const response = await t.app.api.post('/api-keys', {
        token: t.owner.session,
        body: { name: 'x', scope: { profiles: [other.profileId] } },
      });
      expect(response.status).to.equal(422);
      expect(response.body.code).to.equal('unknown_profile');
    });

    it('refuses an expiry in the past', async () => {
      const response = await t.app.api.post('/api-keys', {
        token: t.owner.session,
        body: { name: 'x', expiresAt: '2020-01-01T00:00:00Z' },
      });
      expect(response.status).to.equal(400);
      expect(response.body.errors[0].path).to.equal('body/expiresAt');
    });
  });

  describe('session-only routes', () => {
    it('answers an API key with 403 session_required on every /api-keys route', async () => {
      const calls = [
        t.app.api.post('/api-keys', { token: t.owner.key, body: { name: 'x' } }),
        t.app.api.get('/api-keys', { token: t.owner.key }),
        t.app.api.patch('/api-keys/key_01jd3y6w7q5v8k0n2b4c6e8g1k', { token: t.owner.key, body: { name: 'x' } }),
        t.app.api.delete('/api-keys/key_01jd3y6w7q5v8k0n2b4c6e8g1k', { token: t.owner.key }),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.status).to.equal(403);
        expect(response.body.code).to.equal('session_required');
      }
    });
  });

  describe('deleteApiKey — DELETE /api-keys/{id}', () => {
    it('revokes at once: the next request with the key is 401 token_revoked', async () => {
      const created = await t.app.api.post('/api-keys', { token: t.owner.session, body: { name: 'doomed' } });
      expect((await t.app.api.get('/profiles', { token: created.body.key })).status).to.equal(200);
      expect((await t.app.api.delete(`/api-keys/${created.body.id}`, { token: t.owner.session })).status).to.equal(204);
      const after = await t.app.api.get('/profiles', { token: created.body.key });
      expect(after.status).to.equal(401);
      expect(after.body.code).to.equal('token_revoked');
      const listed = await t.app.api.get('/api-keys', { token: t.owner.session });
      expect(listed.body.data.map((k: { id: string }) => k.id)).to.not.include(created.body.id);
    });

    it("answers 404 for another owner's key", async () => {
      const other = await newOwner(t.app.api);
      const theirs = await t.app.api.post('/api-keys', { token: other.session, body: { name: 'theirs' } });
      const response = await t.app.api.delete(`/api-keys/${theirs.body.id}`, { token: t.owner.session });
      expect(response.status).to.equal(404);
      expect((await t.app.api.get('/profiles', { token: theirs.body.key })).status).to.equal(200);
    });
  });

  itPagesByKeyset(t, 'listApiKeys', async (count) => {
    const ids: string[] = [];
    for (let n = 0; n < count; n += 1)
      ids.unshift((await t.app.api.post('/api-keys', { token: t.owner.session, body: { name: `key ${n}` } })).body.id);
    return { path: '/api-keys', ids, token: t.owner.session };
  });

  describe('updateApiKey — PATCH /api-keys/{id}', () => {
    it('renames a key and sets its expiry; an expired key is 401 token_expired', async () => {
      const created = await t.app.api.post('/api-keys', { token: t.owner.session, body: { name: 'old' } });
      const renamed = await t.app.api.patch(`/api-keys/${created.body.id}`, { token: t.owner.session, body: { name: 'new' } });
      expect(renamed.status).to.equal(200);
      expect(renamed.body.name).to.equal('new');
      await t.app.services
        .db('api_keys')
        .where({ id: created.body.id })
        .update({ expiresAt: new Date(Date.now() - 1000) });
      const response = await t.app.api.get('/profiles', { token: created.body.key });
      expect(response.status).to.equal(401);
      expect(response.body.code).to.equal('token_expired');
    });

    it('records when the key was last used', async () => {
      const created = await t.app.api.post('/api-keys', { token: t.owner.session, body: { name: 'used' } });
      expect(created.body.lastUsedAt).to.equal(null);
      await t.app.api.get('/profiles', { token: created.body.key });
      const listed = await t.app.api.get('/api-keys', { token: t.owner.session });
      const key = listed.body.data.find((k: { id: string }) => k.id === created.body.id);
      expect(Date.parse(key.lastUsedAt)).to.be.closeTo(Date.now(), 10_000);
    });
  });
});
