import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { botMessages, connectBot, connectLocations, localPosts, publishingSettings, sandboxPost, settled, waitForPost } from './posts-support.js';

describe('an account\'s posts on its platform — history and deletion', () => {
  let app: TestApp;
  let owner: TestOwner;

  before(async () => {
    app = await startTestApp(publishingSettings());
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
  });
  after(async () => {
    await app.close();
  });

  async function platformLocation(accountId: string): Promise<string> {
    return (await app.services.db('accounts').where({ id: accountId }).first()).platformAccountId;
  }

  async function publish(accountId: string, text: string, platformOptions: Record<string, unknown> = {}): Promise<any> {
    const created = await app.api.post('/posts', { token: owner.key, body: { text, accountIds: [accountId], publishNow: true, platformOptions } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const post = await waitForPost(app, owner, created.body.id, settled);
    expect(post.status).to.equal('published');
    return post;
  }

  describe('listAccountHistory — GET /accounts/{id}/history', () => {
    it('lists the location\'s posts newest first, ours with their postId and one made in the app with postId null', async () => {
      const [location] = await connectLocations(app, owner);
      const since = new Date(Date.now() - 1000).toISOString();
      const ours = await publish(location!, 'Made through the API.');
      await sandboxPost(app, '/_sandbox/search_suite/local-posts', { location: await platformLocation(location!), summary: 'Made in the app.' });

      const history = await app.api.get(`/accounts/${location}/history?from=${encodeURIComponent(since)}`, { token: owner.key });
      expect(history.status, JSON.stringify(history.body)).to.equal(200);
      expect(history.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Made in the app.', 'Made through the API.']);
      const [inApp, throughUs] = history.body.data;
      expect(inApp).to.include({ accountId: location, platform: 'search_suite', postId: null, metrics: null });
      expect(throughUs).to.include({ postId: ours.id, platformPostId: ours.targets[0].platformPostId, url: ours.targets[0].url });
      expect(history.body.nextCursor).to.equal(null);
    });

    it('pages with the platform\'s cursor inside ours, and applies from and to', async () => {
      const [location] = await connectLocations(app, owner);
      const name = await platformLocation(location!);
      const before = new Date().toISOString();
      for (const summary of ['First.', 'Second.', 'Third.']) await sandboxPost(app, '/_sandbox/search_suite/local-posts', { location: name, summary });

      const first = await app.api.get(`/accounts/${location}/history?limit=2&from=${encodeURIComponent(before)}`, { token: owner.key });
      expect(first.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Third.', 'Second.']);
      expect(first.body.nextCursor).to.be.a('string');
      const second = await app.api.get(`/accounts/${location}/history?limit=2&from=${encodeURIComponent(before)}&cursor=${first.body.nextCursor}`, { token: owner.key });
      expect(second.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['First.']);

      const future = await app.api.get(`/accounts/${location}/history?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, { token: owner.key });
      expect(future.body).to.deep.equal({ data: [], nextCursor: null });
      const earlier = await app.api.get(`/accounts/${location}/history?to=${encodeURIComponent(before)}`, { token: owner.key });
      expect(earlier.body.data.map((p: { text: string }) => p.text)).to.not.include.members(['First.', 'Second.', 'Third.']);
    });

    it('refuses a made-up cursor and an empty period with 400, a bot with 422, another owner\'s account with 404', async () => {
      const [location] = await connectLocations(app, owner);
      const bad = await app.api.get(`/accounts/${location}/history?cursor=bm90LWEtY3Vyc29y`, { token: owner.key });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0]).to.include({ path: 'query/cursor' });
      const at = new Date().toISOString();
      const empty = await app.api.get(`/accounts/${location}/history?from=${encodeURIComponent(at)}&to=${encodeURIComponent(at)}`, { token: owner.key });
      expect(empty.status).to.equal(400);
      expect(empty.body.errors[0]).to.include({ path: 'query/to' });

      const bot = await connectBot(app, owner);
      const unsupported = await app.api.get(`/accounts/${bot.accountId}/history`, { token: owner.key });
      expect(unsupported.status).to.equal(422);
      expect(unsupported.body).to.include({ code: 'account_platform_unsupported', detail: 'botchat accounts have no post history.' });

      const stranger = await newOwner(app.api);
      expect((await app.api.get(`/accounts/${location}/history`, { token: stranger.key })).status).to.equal(404);
    });

    it('answers 409 account_not_connected for an account that needs reconnection', async () => {
      const [location] = await connectLocations(app, owner);
      await app.services.db('accounts').where({ id: location }).update({ status: 'needs_reconnection', statusReason: 'token_revoked' });
      const refused = await app.api.get(`/accounts/${location}/history`, { token: owner.key });
      expect(refused.status).to.equal(409);
      expect(refused.body.code).to.equal('account_not_connected');
    });
  });

  describe('deletePlatformPost — DELETE /accounts/{id}/posts/{objectId}', () => {
    it('deletes a post made in the app: 204, gone from the platform, and a second time 404', async () => {
      const [location] = await connectLocations(app, owner);
      const made = await sandboxPost(app, '/_sandbox/search_suite/local-posts', { location: await platformLocation(location!), summary: 'Delete me.' });
      const path = `/accounts/${location}/posts/${encodeURIComponent(made.name)}`;
      const deleted = await app.api.delete(path, { token: owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
      expect(await localPosts(app, location!, 'Delete me.')).to.have.length(0);
      const again = await app.api.delete(path, { token: owner.key });
      expect(again.status).to.equal(404);
      expect(again.body.code).to.equal('not_found');
    });

    it('deleting one of our posts on the platform marks its target deleted', async () => {
      const [location, other] = await connectLocations(app, owner);
      const post = await publish(location!, 'Ours, then gone.');
      const objectId = post.targets[0].platformPostId;
      // Another location of the same owner cannot reach it.
      expect((await app.api.delete(`/accounts/${other}/posts/${encodeURIComponent(objectId)}`, { token: owner.key })).status).to.equal(404);
      expect(await localPosts(app, location!, 'Ours, then gone.')).to.have.length(1);

      expect((await app.api.delete(`/accounts/${location}/posts/${encodeURIComponent(objectId)}`, { token: owner.key })).status).to.equal(204);
      expect(await localPosts(app, location!, 'Ours, then gone.')).to.have.length(0);
      const after = await app.api.get(`/posts/${post.id}`, { token: owner.key });
      expect(after.body.targets[0]).to.include({ status: 'deleted', platformPostId: objectId });
    });

    it('a bot deletes its message by `<chatId>:<messageId>`; an id that names no message is 404', async () => {
      const bot = await connectBot(app, owner);
      const post = await publish(bot.accountId, 'A message.', { botchat: { chatIds: ['77'] } });
      const objectId = post.targets[0].platformPostId as string;
      expect(objectId).to.match(/^77:\d+$/);
      expect((await app.api.delete(`/accounts/${bot.accountId}/posts/${objectId}`, { token: owner.key })).status).to.equal(204);
      expect((await botMessages(app, bot.token)).map((m) => m.deleted)).to.deep.equal([true]);
      expect((await app.api.delete(`/accounts/${bot.accountId}/posts/${objectId}`, { token: owner.key })).status).to.equal(404);
      expect((await app.api.delete(`/accounts/${bot.accountId}/posts/not-a-message`, { token: owner.key })).status).to.equal(404);
    });
  });
});
