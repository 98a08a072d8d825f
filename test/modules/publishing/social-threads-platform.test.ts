import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { newOwner } from '../../support/owners.js';
import { connectThreads } from '../../support/sandbox/social-threads.js';
import { until } from '../../support/wait.js';
import { postNow, settled, waitForPost } from './posts-support.js';

describeApi(
  "social_threads — a lost answer after a crash, deleting, and the profile's history",
  { settings: { publishing: { leaseSeconds: 1 } } },
  (t) => {
    const { socialThreads } = t.sandbox;
    let worker: CrashableWorker;

    before(async () => {
      worker = await CrashableWorker.standIn(t.app, 'publishing');
    });
    after(async () => {
      await worker.stop();
    });

    const madeInTheApp = (userId: string, text: string) => socialThreads.postInApp(userId, text);

    it('a worker dies while threads_publish is in flight: the next one finds the container PUBLISHED and records the thread, posted once', async () => {
      const person = await connectThreads(t.app, t.owner);
      await socialThreads.failNext(person.userId, [{ kind: 'hang_after_publish' }]);
      const created = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: 'Through the crash.', accountIds: [person.accountId], publishNow: true },
      });
      expect(created.status).to.equal(202);
      await until(async () => (await socialThreads.onPlatform(person.userId)).threads.length > 0, { what: 'the thread to be published' });
      // The process dies with the call in flight; another worker takes over when the lease runs out.
      await worker.crashAndReplace();

      const post = await waitForPost(t.app, t.owner, created.body.id, settled, 20_000);
      const onPlatform = await socialThreads.onPlatform(person.userId);
      expect(onPlatform.threads).to.have.length(1);
      expect(onPlatform.containers).to.have.length(1);
      expect(post.status).to.equal('published');
      expect(post.targets[0]).to.include({ platformPostId: onPlatform.threads[0]!.id, attempts: 1 });
      expect(post.targets[0].url).to.equal(onPlatform.threads[0]!.permalink);
    });

    it('deletePost — DELETE /posts/{id} deletes the thread on the platform and marks the target deleted', async () => {
      const person = await connectThreads(t.app, t.owner);
      const post = await postNow(t.app, t.owner, { text: 'Here for a moment.', accountIds: [person.accountId] });
      expect(post.status).to.equal('published');
      const deleted = await t.app.api.delete(`/posts/${post.id}`, { token: t.owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
      expect(deleted.body).to.deep.include({ postId: post.id, status: 'deleted' });
      expect(deleted.body.targets[0]).to.include({ result: 'deleted', platformPostId: post.targets[0].platformPostId });
      expect((await socialThreads.onPlatform(person.userId)).threads).to.have.length(0);
      expect((await t.app.api.get(`/posts/${post.id}`, { token: t.owner.key })).body.targets[0].status).to.equal('deleted');
    });

    it('a profile that did not grant threads_delete (connected before it was asked for): 502, the thread stays, the account needs reconnection', async () => {
      const person = await connectThreads(t.app, t.owner, 'threads_basic,threads_content_publish');
      const post = await postNow(t.app, t.owner, { text: 'Hard to remove.', accountIds: [person.accountId] });
      expect(post.status).to.equal('published');
      const refused = await t.app.api.delete(`/posts/${post.id}`, { token: t.owner.key });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(502);
      expect(refused.body.detail).to.include('Application does not have permission for this action');
      expect((await socialThreads.onPlatform(person.userId)).threads).to.have.length(1);
      expect((await t.app.api.get(`/accounts/${person.accountId}`, { token: t.owner.key })).body.status).to.equal('needs_reconnection');
    });

    it("deletePlatformPost — a thread made in the app is deleted (204), then 404; another person's thread is 404 and stays", async () => {
      const person = await connectThreads(t.app, t.owner);
      const made = await madeInTheApp(person.userId, 'Typed on the phone.');
      const path = `/accounts/${person.accountId}/posts/${made.id}`;
      const deleted = await t.app.api.delete(path, { token: t.owner.key });
      expect(deleted.status, JSON.stringify(deleted.body)).to.equal(204);
      expect((await socialThreads.onPlatform(person.userId)).threads).to.have.length(0);
      expect((await t.app.api.delete(path, { token: t.owner.key })).status).to.equal(404);

      const stranger = await connectThreads(t.app, await newOwner(t.app.api));
      const theirs = await madeInTheApp(stranger.userId, 'Not yours.');
      expect((await t.app.api.delete(`/accounts/${person.accountId}/posts/${theirs.id}`, { token: t.owner.key })).status).to.equal(404);
      expect((await socialThreads.onPlatform(stranger.userId)).threads.map((t) => t.text)).to.deep.equal(['Not yours.']);
    });

    it('listAccountHistory — newest first: ours with its postId, one made in the app with postId null, no metrics', async () => {
      const person = await connectThreads(t.app, t.owner);
      const ours = await postNow(t.app, t.owner, { text: 'Through Socialgate.', accountIds: [person.accountId] });
      await madeInTheApp(person.userId, 'Made in the app.');
      const history = await t.app.api.get(`/accounts/${person.accountId}/history`, { token: t.owner.key });
      expect(history.status, JSON.stringify(history.body)).to.equal(200);
      expect(history.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Made in the app.', 'Through Socialgate.']);
      const [inApp, throughUs] = history.body.data;
      expect(inApp).to.include({ accountId: person.accountId, platform: 'social_threads', postId: null, metrics: null });
      expect(throughUs).to.include({ postId: ours.id, platformPostId: ours.targets[0].platformPostId, url: ours.targets[0].url });
      expect(Date.parse(throughUs.publishedAt)).to.be.closeTo(Date.parse(ours.targets[0].publishedAt), 2000);
      expect(history.body.nextCursor).to.equal(null);
    });

    it("listAccountHistory — pages with the platform's cursor and applies from and to", async () => {
      const person = await connectThreads(t.app, t.owner);
      await madeInTheApp(person.userId, 'Before.');
      // The platform keeps whole seconds: the period starts on the next one, once it has begun.
      const next = Math.ceil((Date.now() + 1) / 1000) * 1000;
      await until(() => Date.now() >= next + 20, { what: 'the next whole second', intervalMs: 10 });
      const from = new Date(next).toISOString();
      for (const text of ['First.', 'Second.', 'Third.']) await madeInTheApp(person.userId, text);

      const first = await t.app.api.get(`/accounts/${person.accountId}/history?limit=2&from=${encodeURIComponent(from)}`, {
        token: t.owner.key,
      });
      expect(first.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Third.', 'Second.']);
      expect(first.body.nextCursor).to.be.a('string');
      const second = await t.app.api.get(
        `/accounts/${person.accountId}/history?limit=2&from=${encodeURIComponent(from)}&cursor=${first.body.nextCursor}`,
        { token: t.owner.key },
      );
      expect(second.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['First.']);
      expect(second.body.nextCursor).to.equal(null);

      const earlier = await t.app.api.get(`/accounts/${person.accountId}/history?to=${encodeURIComponent(from)}`, { token: t.owner.key });
      expect(earlier.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Before.']);
      const future = await t.app.api.get(
        `/accounts/${person.accountId}/history?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        { token: t.owner.key },
      );
      expect(future.body).to.deep.equal({ data: [], nextCursor: null });
    });
  },
);
