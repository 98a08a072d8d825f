import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { newOwner, restrictedKey } from '../../support/owners.js';

describeApi('profiles — /profiles', (t) => {
  it('createProfile, getProfile and updateProfile work with an API key', async () => {
    const created = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'Acme', description: 'Roastery' } });
    expect(created.status).to.equal(201);
    expect(created.body.id).to.match(/^prof_[0-9a-z]{26}$/);
    const updated = await t.app.api.patch(`/profiles/${created.body.id}`, { token: t.owner.key, body: { description: null } });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ name: 'Acme', description: null });
    const read = await t.app.api.get(`/profiles/${created.body.id}`, { token: t.owner.key });
    expect(read.body).to.deep.equal(updated.body);
  });

  itPagesByKeyset(t, 'listProfiles', async (count) => {
    const ids: string[] = [];
    for (let n = 0; n < count; n += 1)
      ids.unshift((await t.app.api.post('/profiles', { token: t.owner.key, body: { name: `profile ${n}` } })).body.id);
    // Newest first: the owner's first profile comes last.
    return { path: '/profiles', ids: [...ids, t.owner.profileId] };
  });

  it("answers 404 for another owner's profile, on read and on update", async () => {
    const other = await newOwner(t.app.api);
    expect((await t.app.api.get(`/profiles/${other.profileId}`, { token: t.owner.key })).status).to.equal(404);
    const update = await t.app.api.patch(`/profiles/${other.profileId}`, { token: t.owner.key, body: { name: 'mine now' } });
    expect(update.status).to.equal(404);
    expect(update.body.code).to.equal('not_found');
    const theirs = await t.app.api.get(`/profiles/${other.profileId}`, { token: other.key });
    expect(theirs.body.name).to.equal('Main profile');
  });

  describe('with a profile-restricted key', () => {
    it('lists only its profiles and gets 403 profile_out_of_scope on the others', async () => {
      const second = await t.app.api.post('/profiles', { token: t.owner.key, body: { name: 'second' } });
      const key = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
      const listed = await t.app.api.get('/profiles', { token: key });
      expect(listed.body.data.map((p: { id: string }) => p.id)).to.deep.equal([t.owner.profileId]);
      const read = await t.app.api.get(`/profiles/${second.body.id}`, { token: key });
      expect(read.status).to.equal(403);
      expect(read.body.code).to.equal('profile_out_of_scope');
      const update = await t.app.api.patch(`/profiles/${second.body.id}`, { token: key, body: { name: 'x' } });
      expect(update.status).to.equal(403);
      expect((await t.app.api.get(`/profiles/${second.body.id}`, { token: t.owner.key })).body.name).to.equal('second');
      expect((await t.app.api.get(`/profiles/${t.owner.profileId}`, { token: key })).status).to.equal(200);
    });

    it('cannot create profiles', async () => {
      const key = await restrictedKey(t.app.api, t.owner, [t.owner.profileId]);
      const response = await t.app.api.post('/profiles', { token: key, body: { name: 'sneaky' } });
      expect(response.status).to.equal(403);
      expect(response.body.code).to.equal('profile_out_of_scope');
    });
  });
});
