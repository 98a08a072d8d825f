import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, restrictedKey, type TestOwner } from '../../support/owners.js';

describe('profiles — /profiles', () => {
  let app: TestApp;
  let owner: TestOwner;
  before(async () => { app = await startTestApp(); });
  beforeEach(async () => { owner = await newOwner(app.api); });
  after(async () => { await app.close(); });

  it('createProfile, getProfile and updateProfile work with an API key', async () => {
    const created = await app.api.post('/profiles', { token: owner.key, body: { name: 'Acme', description: 'Roastery' } });
    expect(created.status).to.equal(201);
    expect(created.body.id).to.match(/^prof_[0-9a-z]{26}$/);
    const updated = await app.api.patch(`/profiles/${created.body.id}`, { token: owner.key, body: { description: null } });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ name: 'Acme', description: null });
    const read = await app.api.get(`/profiles/${created.body.id}`, { token: owner.key });
    expect(read.body).to.deep.equal(updated.body);
  });

  it('listProfiles pages newest first with an opaque cursor', async () => {
    const names = ['one', 'two', 'three', 'four', 'five'];
    for (const name of names) await app.api.post('/profiles', { token: owner.key, body: { name } });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
      const page = await app.api.get(`/profiles${query}`, { token: owner.key });
      expect(page.status).to.equal(200);
      expect(page.body.data.length).to.be.at.most(2);
      seen.push(...page.body.data.map((p: { name: string }) => p.name));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).to.deep.equal([...names.reverse(), 'Main profile']);
  });

  it('refuses a cursor it did not make', async () => {
    const response = await app.api.get('/profiles?cursor=bm9wZQ', { token: owner.key });
    expect(response.status).to.equal(400);
    expect(response.body.errors[0].path).to.equal('query/cursor');
  });

  it("answers 404 for another owner's profile, on read and on update", async () => {
    const other = await newOwner(app.api);
    expect((await app.api.get(`/profiles/${other.profileId}`, { token: owner.key })).status).to.equal(404);
    const update = await app.api.patch(`/profiles/${other.profileId}`, { token: owner.key, body: { name: 'mine now' } });
    expect(update.status).to.equal(404);
    expect(update.body.code).to.equal('not_found');
    const theirs = await app.api.get(`/profiles/${other.profileId}`, { token: other.key });
    expect(theirs.body.name).to.equal('Main profile');
  });

  describe('with a profile-restricted key', () => {
    it('lists only its profiles and gets 403 profile_out_of_scope on the others', async () => {
      const second = await app.api.post('/profiles', { token: owner.key, body: { name: 'second' } });
      const key = await restrictedKey(app.api, owner, [owner.profileId]);
      const listed = await app.api.get('/profiles', { token: key });
      expect(listed.body.data.map((p: { id: string }) => p.id)).to.deep.equal([owner.profileId]);
      const read = await app.api.get(`/profiles/${second.body.id}`, { token: key });
      expect(read.status).to.equal(403);
      expect(read.body.code).to.equal('profile_out_of_scope');
      const update = await app.api.patch(`/profiles/${second.body.id}`, { token: key, body: { name: 'x' } });
      expect(update.status).to.equal(403);
      expect((await app.api.get(`/profiles/${second.body.id}`, { token: owner.key })).body.name).to.equal('second');
      expect((await app.api.get(`/profiles/${owner.profileId}`, { token: key })).status).to.equal(200);
    });

    it('cannot create profiles', async () => {
      const key = await restrictedKey(app.api, owner, [owner.profileId]);
      const response = await app.api.post('/profiles', { token: key, body: { name: 'sneaky' } });
      expect(response.status).to.equal(403);
      expect(response.body.code).to.equal('profile_out_of_scope');
    });
  });
});
