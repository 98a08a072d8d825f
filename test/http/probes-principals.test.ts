import { expect } from 'chai';
import type { TestApp } from '../support/app.js';
import { describeApi } from '../support/harness.js';
import { newOwner, restrictedKey, type TestOwner } from '../support/owners.js';
import { connectBot } from '../support/sandbox/botchat.js';
import { png, upload } from '../modules/publishing/support.js';

describeApi('what one principal can reach through another: keys, profiles and owners', (t) => {
  let app: TestApp;
  let owner: TestOwner;
  /** A second profile of the same owner, outside the restricted key. */
  let otherProfileId: string;
  /** An API key restricted to the owner's first profile. */
  let scoped: string;
  beforeEach(async () => {
    app = t.app;
    owner = t.owner;
    otherProfileId = (await app.api.post('/profiles', { token: owner.key, body: { name: 'Second' } })).body.id;
    scoped = await restrictedKey(app.api, owner, [owner.profileId]);
  });

  async function mediaOf(profileId: string | undefined): Promise<string> {
    const response = await upload(
      app,
      owner.key,
      { bytes: png(8, 8), filename: 'p.png', type: 'image/png' },
      profileId ? { profileId } : {},
    );
    expect(response.status, response.text).to.equal(201);
    return response.body.id as string;
  }

  const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();
  const toChat = { botchat: { chatIds: ['4242'] } };

  describe("mediaIds are checked against the key's profiles and the post's profile", () => {
    it("a restricted key cannot publish another profile's media: 403, and no post is made", async () => {
      const { accountId } = await connectBot(app, owner);
      const foreign = await mediaOf(otherProfileId);
      const response = await app.api.post('/posts', {
        token: scoped,
        body: { accountIds: [accountId], mediaIds: [foreign], scheduledAt: inAnHour(), platformOptions: toChat },
      });
      expect(response.status, response.text).to.equal(403);
      expect(response.body.code).to.equal('profile_out_of_scope');
      expect(await app.services.db('posts').where({ ownerId: owner.ownerId })).to.have.length(0);
    });

    it('nor queue it in a new post: 403', async () => {
      const { accountId } = await connectBot(app, owner);
      await app.api.post('/queue/slots', {
        token: owner.key,
        body: { profileId: owner.profileId, dayOfWeek: 'monday', time: '09:00', timezone: 'UTC' },
      });
      const foreign = await mediaOf(otherProfileId);
      const response = await app.api.post('/queue', {
        token: scoped,
        body: { post: { accountIds: [accountId], mediaIds: [foreign], platformOptions: toChat } },
      });
      expect(response.status, response.text).to.equal(403);
      expect(response.body.code).to.equal('profile_out_of_scope');
    });

    it("any caller's post may use only media of its own profile, or of no profile: 422 media_other_profile", async () => {
      const { accountId } = await connectBot(app, owner);
      const [foreign, shared, own] = [await mediaOf(otherProfileId), await mediaOf(undefined), await mediaOf(owner.profileId)];
      const refused = await app.api.post('/posts', {
        token: owner.key,
        body: { accountIds: [accountId], mediaIds: [own, foreign], scheduledAt: inAnHour(), platformOptions: toChat },
      });
      expect(refused.status).to.equal(422);
      expect(refused.body.errors).to.deep.include({
        path: 'body/mediaIds/1',
        code: 'media_other_profile',
        accountId: null,
        platform: null,
        limit: null,
        message: `The media belongs to profile ${otherProfileId}; a post may use media of its own profile (${owner.profileId}) or of no profile.`,
      });
      const allowed = await app.api.post('/posts', {
        token: scoped,
        body: { accountIds: [accountId], mediaIds: [shared], scheduledAt: inAnHour(), platformOptions: toChat },
      });
      expect(allowed.status, allowed.text).to.equal(201);
    });
  });

  describe('Idempotency-Key records belong to the principal that made them', () => {
    it("a restricted key sending an unrestricted key's Idempotency-Key and body never sees its answer (an owner-wide hook's secret)", async () => {
      // A literal public address: the address guard needs no DNS for it.
      const request = { body: { url: 'https://93.184.216.34/in', events: ['post.published'] }, headers: { 'Idempotency-Key': 'hook-1' } };
      const first = await app.api.post('/hooks', { token: owner.key, ...request });
      expect(first.status).to.equal(201);
      const replayed = await app.api.post('/hooks', { token: scoped, ...request });
      expect(replayed.status).to.equal(422);
      expect(replayed.body.code).to.equal('idempotency_key_reused');
      expect(replayed.text).to.not.include(first.body.secret);
      expect(replayed.headers.get('idempotent-replayed')).to.equal(null);
    });

    it('a session and a key of the same owner do not share records either', async () => {
      const headers = { 'Idempotency-Key': 'profile-1' };
      const bySession = await app.api.post('/profiles', { token: owner.session, body: { name: 'Shop' }, headers });
      const byKey = await app.api.post('/profiles', { token: owner.key, body: { name: 'Shop' }, headers });
      expect(bySession.status).to.equal(201);
      expect(byKey.status).to.equal(422);
      const again = await app.api.post('/profiles', { token: owner.session, body: { name: 'Shop' }, headers });
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(bySession.body);
    });
  });

  describe("a list filtered by another owner's profile", () => {
    for (const path of ['/accounts', '/accounts/health', '/adaccounts', '/posts', '/queue', '/queue/slots']) {
      it(`GET ${path}?profileId= answers 404, as a read of that profile does; its own profiles still list`, async () => {
        const stranger = await newOwner(app.api);
        const response = await app.api.get(`${path}?profileId=${stranger.profileId}`, { token: owner.key });
        expect(response.status).to.equal(404);
        expect(response.body.code).to.equal('not_found');
        expect((await app.api.get(`/profiles/${stranger.profileId}`, { token: owner.key })).status).to.equal(404);
        expect((await app.api.get(`${path}?profileId=${owner.profileId}`, { token: owner.key })).status).to.equal(200);
        expect((await app.api.get(`${path}?profileId=${otherProfileId}`, { token: scoped })).status).to.equal(403);
      });
    }
  });
});
