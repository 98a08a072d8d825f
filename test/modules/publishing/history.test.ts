import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
import { newOwner } from '../../support/owners.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectLocations, localPosts } from '../../support/sandbox/search-suite.js';
import { settled, waitForPost } from './posts-support.js';

describeApi("an account's posts on its platform — history and deletion", (t) => {
  const { botchat, searchSuite } = t.sandbox;

  async function platformLocation(accountId: string): Promise<string> {
    return (await t.app.services.db('accounts').where({ id: accountId }).first()).platformAccountId;
  }

  async function publish(accountId: string, text: string, platformOptions: Record<string, unknown> = {}): Promise<any> {
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { text, accountIds: [accountId], publishNow: true, platformOptions },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const post = await waitForPost(t.app, t.owner, created.body.id, settled);
    expect(post.status).to.equal('published');
    return post;
  }

  describe('listAccountHistory — GET /accounts/{id}/history', () => {
    it("lists the location's posts newest first, ours with their postId and one made in the app with postId null", async () => {
      const [location] = await connectLocations(t.app, t.owner);
      const since = new Date(Date.now() - 1000).toISOString();
      const ours = await publish(location!, 'Made through the API.');
      await searchSuite.postInApp(await platformLocation(location!), 'Made in the app.');

      const history = await t.app.api.get(`/accounts/${location}/history?from=${encodeURIComponent(since)}`, { token: t.owner.key });
      expect(history.status, JSON.stringify(history.body)).to.equal(200);
      expect(history.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Made in the app.', 'Made through the API.']);
      const [inApp, throughUs] = history.body.data;
      expect(inApp).to.include({ accountId: location, platform: 'search_suite', postId: null, metrics: null });
      expect(throughUs).to.include({ postId: ours.id, platformPostId: ours.targets[0].platformPostId, url: ours.targets[0].url });
      expect(history.body.nextCursor).to.equal(null);
    });

    it("pages with the platform's cursor inside ours, and applies from and to", async () => {
      const [location] = await connectLocations(t.app, t.owner);
      const name = await platformLocation(location!);
      const before = new Date().toISOString();
      for (const summary of ['First.', 'Second.', 'Third.']) await searchSuite.postInApp(name, summary);

      const first = await t.app.api.get(`/accounts/${location}/history?limit=2&from=${encodeURIComponent(before)}`, { token: t.owner.key });
      expect(first.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Third.', 'Second.']);
      expect(first.body.nextCursor).to.be.a('string');
      const second = await t.app.api.get(
        `/accounts/${location}/history?limit=2&from=${encodeURIComponent(before)}&cursor=${first.body.nextCursor}`,
        { token: t.owner.key },
      );
      expect(second.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['First.']);

      const future = await t.app.api.get(
        `/accounts/${location}/history?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        { token: t.owner.key },
      );
      expect(future.body).to.deep.equal({ data: [], nextCursor: null });
      const earlier = await t.app.api.get(`/accounts/${location}/history?to=${encodeURIComponent(before)}`, { token: t.owner.key });
      expect(earlier.body.data.map((p: { text: string }) => p.text)).to.not.include.members(['First.', 'Second.', 'Third.']);
    });

    it("refuses a made-up cursor and an empty period with 400, a bot with 422, another owner's account with 404", async () => {
      const [location] = await connectLocations(t.app, t.owner);
      const bad = await t.app.api.get(`/accounts/${location}/history?cursor=bm90LWEtY3Vyc29y`, { token: t.owner.key });
      expect(bad.status).to.equal(400);
      expect(bad.body.errors[0]).to.include({ path: 'query/cursor' });
      const at = new Date().toISOString();
      const empty = await t.app.api.get(`/accounts/${location}/history?from=${encodeURIComponent(at)}&to=${encodeURIComponent(at)}`, {
        token: t.owner.key,
      });
      expect(empty.status).to.equal(400);
      expect(empty.body.errors[0]).to.include({ path: 'query/to' });

      const bot = await connectBot(t.app, t.owner);
      const unsupported = await t.app.api.get(`/accounts/${bot.accountId}/history`, { token: t.owner.key });
      expect(unsupported.status).to.equal(422);
      expect(unsupported.body).to.include({ code: 'account_platform_unsupported', detail: 'botchat accounts have no post history.' });

      const stranger = await newOwner(t.app.api);
      expect((await t.app.api.get(`/accounts/${location}/history`, { token: stranger.key })).status).to.equal(404);
    });

    it('answers 409 account_not_connected for an account that needs reconnection', async () => {
      const [location] = await connectLocations(t.app, t.owner);
      await t.app.services.db('accounts').where({ id: location }).update({ status: 'needs_reconnection', statusReason: 'token_revoked' });
      const refused = await t.app.api.get(`/accounts/${location}/history`, { token: t.owner.key });
      expect(refused.status).to.equal(409);
      expect(refused.body.code).to.equal('account_not_connected');
    });

    itPagesThroughPlatform(t, 'listAccountHistory', async (count) => {
      const [location] = await connectLocations(t.app, t.owner);
      const name = await platformLocation(location!);
      const since = new Date().toISOString();
      const made: string[] = [];
      for (let i = 0; i < count; i++) made.unshift((await searchSuite.postInApp(name, `Paged ${i}.`)).name);
      return { path: `/accounts/${location}/history?from=${encodeURIComponent(since)}`, ids: made, idOf: (post) => post.platformPostId };
    });
  });

  describe('deletePlatformPost — DELETE /accounts/{id}/posts/{objectId}', () => {
    it('deletes a post made in the app: 204, gone from the platform, and a second time 404', async () => {
      const [location] = await connectLocations(t.app, t.owner);
      const made = await searchSuite.postInApp(await platformLocation(location!), 'Delete me.');
      const path = `/accounts/${location}/posts/${encodeURIComponent(made.name)}`;
      const deleted = await t.app.api.delete(path, { token: t.owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
      expect(await localPosts(t.app, location!, 'Delete me.')).to.have.length(0);
      const again = await t.app.api.delete(path, { token: t.owner.key });
      expect(again.status).to.equal(404);
      expect(again.body.code).to.equal('not_found');
    });

    it('deleting one of our posts on the platform marks its target deleted', async () => {
      const [location, other] = await connectLocations(t.app, t.owner);
      const post = await publish(location!, 'Ours, then gone.');
      const objectId = post.targets[0].platformPostId;
      // Another location of the same owner cannot reach it.
      expect((await t.app.api.delete(`/accounts/${other}/posts/${encodeURIComponent(objectId)}`, { token: t.owner.key })).status).to.equal(
        404,
      );
      expect(await localPosts(t.app, location!, 'Ours, then gone.')).to.have.length(1);

      expect(
        (await t.app.api.delete(`/accounts/${location}/posts/${encodeURIComponent(objectId)}`, { token: t.owner.key })).status,
      ).to.equal(204);
      expect(await localPosts(t.app, location!, 'Ours, then gone.')).to.have.length(0);
      const after = await t.app.api.get(`/posts/${post.id}`, { token: t.owner.key });
      expect(after.body.targets[0]).to.include({ status: 'deleted', platformPostId: objectId });
    });

    it('a bot deletes its message by `<chatId>:<messageId>`; an id that names no message is 404', async () => {
      const bot = await connectBot(t.app, t.owner);
      const post = await publish(bot.accountId, 'A message.', { botchat: { chatIds: ['77'] } });
      const objectId = post.targets[0].platformPostId as string;
      expect(objectId).to.match(/^77:\d+$/);
      expect((await t.app.api.delete(`/accounts/${bot.accountId}/posts/${objectId}`, { token: t.owner.key })).status).to.equal(204);
      expect((await botchat.onPlatform(bot.token)).map((m) => m.deleted)).to.deep.equal([true]);
      expect((await t.app.api.delete(`/accounts/${bot.accountId}/posts/${objectId}`, { token: t.owner.key })).status).to.equal(404);
      expect((await t.app.api.delete(`/accounts/${bot.accountId}/posts/not-a-message`, { token: t.owner.key })).status).to.equal(404);
    });
  });
});
