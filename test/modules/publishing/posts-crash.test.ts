import { expect } from 'chai';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectLocations, localPosts } from '../../support/sandbox/search-suite.js';
import { until } from '../../support/wait.js';
import { settled, waitForPost } from './posts-support.js';

describeApi(
  'posts — a worker that dies between the platform call and the acknowledgement',
  { settings: { publishing: { leaseSeconds: 1 } } },
  (t) => {
    const { botchat, searchSuite } = t.sandbox;
    let worker: CrashableWorker;

    before(async () => {
      worker = await CrashableWorker.standIn(t.app, 'publishing');
    });
    after(async () => {
      await worker.stop();
    });

    it('search_suite: the next worker finds the post on the platform and records it; nothing is posted twice', async () => {
      const [location] = await connectLocations(t.app, t.owner);
      await searchSuite.failNext([{ kind: 'hang_after_create' }]);
      const created = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: 'Exactly once.', accountIds: [location], publishNow: true },
      });
      expect(created.status).to.equal(202);
      await until(async () => (await localPosts(t.app, location!, 'Exactly once.')).length === 1);
      const row = await t.app.services.db('postTargets').where({ postId: created.body.id }).first();
      expect(row.attemptStartedAt, 'the attempt was marked before the call').to.be.an.instanceOf(Date);
      await worker.crashAndReplace();
      const post = await waitForPost(t.app, t.owner, created.body.id, settled);
      const onPlatform = await localPosts(t.app, location!, 'Exactly once.');
      expect(onPlatform).to.have.length(1);
      expect(post.status).to.equal('published');
      expect(post.targets[0]).to.include({ platformPostId: onPlatform[0]!.name, attempts: 1 });
    });

    it("botchat: the platform cannot be asked, so the target fails as unknown instead of sending again; a retry is the user's call", async () => {
      const bot = await connectBot(t.app, t.owner);
      await botchat.failNext(bot.token, [{ kind: 'hang_after_send' }]);
      const created = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: 'Once, please.', accountIds: [bot.accountId], publishNow: true, platformOptions: { botchat: { chatIds: ['31'] } } },
      });
      await until(async () => (await botchat.onPlatform(bot.token)).length === 1);
      await worker.crashAndReplace();
      const post = await waitForPost(t.app, t.owner, created.body.id, settled);
      expect(post.status).to.equal('failed');
      expect(post.targets[0].failure).to.include({ code: 'unknown', action: 'none', retryable: true });
      expect(post.targets[0].failure.message).to.match(/unknown/);
      expect(await botchat.onPlatform(bot.token)).to.have.length(1);

      const retried = await t.app.api.post(`/posts/${created.body.id}/retry`, { token: t.owner.key });
      expect(retried.status).to.equal(202);
      expect((await waitForPost(t.app, t.owner, created.body.id, settled)).status).to.equal('published');
      expect(await botchat.onPlatform(bot.token)).to.have.length(2);
    });

    it('botchat: a 500 (the bot API may or may not have sent it) fails at once as unknown; a 429 is retried after retry_after', async () => {
      const bot = await connectBot(t.app, t.owner);
      await botchat.failNext(bot.token, [{ kind: 'server_error' }]);
      const first = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: 'Maybe.', accountIds: [bot.accountId], publishNow: true, platformOptions: { botchat: { chatIds: ['32'] } } },
      });
      const failed = await waitForPost(t.app, t.owner, first.body.id, settled);
      expect(failed.targets[0]).to.include({ status: 'failed', attempts: 1 });
      expect(failed.targets[0].failure).to.include({ code: 'unknown', platformCode: null });

      await botchat.failNext(bot.token, [{ kind: 'rate_limited', retryAfter: 1 }]);
      const second = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: 'Soon.', accountIds: [bot.accountId], publishNow: true, platformOptions: { botchat: { chatIds: ['32'] } } },
      });
      const published = await waitForPost(t.app, t.owner, second.body.id, settled);
      expect(published.targets[0]).to.include({ status: 'published', attempts: 2 });
      expect((await botchat.onPlatform(bot.token)).map((m) => m.text)).to.deep.equal(['Soon.']);
    });
  },
);
