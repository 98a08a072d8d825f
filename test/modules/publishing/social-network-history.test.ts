import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { connectNewPage, type ConnectedPage } from '../../support/sandbox/social-network.js';
import { until } from '../../support/wait.js';
import { settled, waitForPost } from './posts-support.js';
import { uploadPhoto, uploadVideo } from './support.js';

describeApi("social_network — a lost answer, the page's history and deleting", { settings: { publishing: { leaseSeconds: 1 } } }, (t) => {
  const { socialNetwork } = t.sandbox;
  let page: ConnectedPage;
  let worker: CrashableWorker;

  before(async () => {
    worker = await CrashableWorker.standIn(t.app, 'publishing');
  });
  beforeEach(async () => {
    page = await connectNewPage(t.app, t.owner);
  });
  after(async () => {
    await worker.stop();
  });

  async function create(body: Record<string, unknown>): Promise<string> {
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { accountIds: [page.accountId], publishNow: true, ...body },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    return created.body.id;
  }

  /** A post made in the page's app, not through us. */
  const madeInApp = (message: string, extra: { reactions?: number; shares?: number; comments?: string[] } = {}) =>
    socialNetwork.postInApp(page.pageId, message, extra);

  describe('an answer that never came', () => {
    it("the next worker finds the post among the page's published posts and records it; nothing is posted twice", async () => {
      await socialNetwork.failNext(page.pageId, [{ kind: 'hang_after_create', edge: 'feed' }]);
      const postId = await create({ text: 'Exactly once, please.' });
      await until(async () => (await socialNetwork.onPlatform(page.pageId)).posts.length === 1);
      await worker.crashAndReplace();
      const post = await waitForPost(t.app, t.owner, postId, settled);
      const { posts } = await socialNetwork.onPlatform(page.pageId);
      expect(posts).to.have.length(1);
      expect(post.status).to.equal('published');
      expect(post.targets[0]).to.include({ platformPostId: posts[0]!.id, attempts: 1 });
    });

    it("a video whose answer never came is found among the page's videos and followed, not uploaded again", async () => {
      const mediaId = await uploadVideo(t.app, t.owner);
      await socialNetwork.failNext(page.pageId, [{ kind: 'hang_after_create', edge: 'videos' }]);
      const postId = await create({ text: 'One clip only.', mediaIds: [mediaId] });
      await until(async () => (await socialNetwork.onPlatform(page.pageId)).videos.length === 1);
      await worker.crashAndReplace();
      const post = await waitForPost(t.app, t.owner, postId, settled, 15_000);
      const { videos, posts } = await socialNetwork.onPlatform(page.pageId);
      expect(videos).to.have.length(1);
      expect(post.status).to.equal('published');
      expect(post.targets[0]).to.include({ platformPostId: videos[0]!.postId });
      expect(posts.map((p) => p.message)).to.deep.equal(['One clip only.']);
    });

    it('an outage (code 2) is checked before trying again: not there, so it is posted, once', async () => {
      const mediaId = await uploadPhoto(t.app, t.owner);
      await socialNetwork.failNext(page.pageId, [{ kind: 'server_error' }]);
      const post = await waitForPost(t.app, t.owner, await create({ text: 'After the outage.', mediaIds: [mediaId] }), settled);
      expect(post.status).to.equal('published');
      expect(post.targets[0]).to.include({ attempts: 2 });
      expect((await socialNetwork.onPlatform(page.pageId)).posts.map((p) => p.message)).to.deep.equal(['After the outage.']);
    });
  });

  describe('GET /accounts/{id}/history', () => {
    it("lists the page's posts newest first with their counts, ours with its postId and one made in the app with postId null", async () => {
      const since = new Date(Date.now() - 1000).toISOString();
      const ours = await waitForPost(t.app, t.owner, await create({ text: 'Through the API.' }), settled);
      await madeInApp('Made in the app.', { reactions: 12, shares: 3, comments: ['Lovely', 'When?'] });

      const history = await t.app.api.get(`/accounts/${page.accountId}/history?from=${encodeURIComponent(since)}`, { token: t.owner.key });
      expect(history.status, JSON.stringify(history.body)).to.equal(200);
      expect(history.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Made in the app.', 'Through the API.']);
      const [inApp, throughUs] = history.body.data;
      expect(inApp).to.include({ accountId: page.accountId, platform: 'social_network', postId: null });
      expect(inApp.metrics).to.deep.equal({
        impressions: null,
        reach: null,
        views: null,
        likes: 12,
        comments: 2,
        shares: 3,
        saves: null,
        clicks: null,
      });
      expect(throughUs).to.include({ postId: ours.id, platformPostId: ours.targets[0].platformPostId, url: ours.targets[0].url });
      expect(throughUs.metrics).to.include({ likes: 0, comments: 0, shares: 0 });
      expect(history.body.nextCursor).to.equal(null);
    });

    it("pages with the platform's cursor, and applies from and to", async () => {
      const before = new Date(Date.now() - 1000).toISOString();
      for (const message of ['First.', 'Second.', 'Third.']) await madeInApp(message);

      const first = await t.app.api.get(`/accounts/${page.accountId}/history?limit=2&from=${encodeURIComponent(before)}`, {
        token: t.owner.key,
      });
      expect(first.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Third.', 'Second.']);
      expect(first.body.nextCursor).to.be.a('string');
      const second = await t.app.api.get(
        `/accounts/${page.accountId}/history?limit=2&from=${encodeURIComponent(before)}&cursor=${first.body.nextCursor}`,
        { token: t.owner.key },
      );
      expect(second.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['First.']);
      expect(second.body.nextCursor).to.equal(null);

      const future = await t.app.api.get(
        `/accounts/${page.accountId}/history?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        { token: t.owner.key },
      );
      expect(future.body).to.deep.equal({ data: [], nextCursor: null });
      const earlier = await t.app.api.get(`/accounts/${page.accountId}/history?to=${encodeURIComponent(before)}`, { token: t.owner.key });
      expect(earlier.body.data).to.deep.equal([]);
    });
  });

  describe('deleting on the platform', () => {
    it("DELETE /accounts/{id}/posts/{objectId} deletes a post made in the app; a second time, or another page's post, is 404", async () => {
      const made = await madeInApp('Delete me.');
      const path = `/accounts/${page.accountId}/posts/${encodeURIComponent(made.id)}`;
      const deleted = await t.app.api.delete(path, { token: t.owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
      expect((await socialNetwork.onPlatform(page.pageId)).posts[0]).to.include({ message: 'Delete me.', deleted: true });
      expect((await t.app.api.delete(path, { token: t.owner.key })).status).to.equal(404);

      const other = await connectNewPage(t.app, t.owner);
      const theirs = await socialNetwork.postInApp(other.pageId, 'Not yours.');
      expect(
        (await t.app.api.delete(`/accounts/${page.accountId}/posts/${encodeURIComponent(theirs.id)}`, { token: t.owner.key })).status,
      ).to.equal(404);
      expect((await socialNetwork.onPlatform(other.pageId)).posts[0]).to.include({ deleted: false });
    });

    it('DELETE /posts/{id} deletes our published post on the page and marks its target deleted', async () => {
      const post = await waitForPost(t.app, t.owner, await create({ text: 'Here, then gone.' }), settled);
      const deleted = await t.app.api.delete(`/posts/${post.id}`, { token: t.owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
      expect(deleted.body.targets[0]).to.include({ result: 'deleted', platformPostId: post.targets[0].platformPostId });
      expect((await socialNetwork.onPlatform(page.pageId)).posts[0]).to.include({ message: 'Here, then gone.', deleted: true });
      const history = await t.app.api.get(`/accounts/${page.accountId}/history`, { token: t.owner.key });
      expect(history.body.data).to.deep.equal([]);
    });
  });
});
