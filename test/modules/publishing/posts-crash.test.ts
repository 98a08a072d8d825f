import { expect } from 'chai';
import { startTestApp, type TestApp } from '../../support/app.js';
import { newOwner, type TestOwner } from '../../support/owners.js';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { botMessages, connectBot, connectLocations, localPosts, publishingSettings, sandboxPost, settled, until, waitForPost } from './posts-support.js';

describe('posts — a worker that dies between the platform call and the acknowledgement', () => {
  let app: TestApp;
  let owner: TestOwner;
  let worker: CrashableWorker;

  before(async () => {
    app = await startTestApp(publishingSettings({ leaseSeconds: 1 }));
    worker = await CrashableWorker.standIn(app, 'publishing');
  });
  beforeEach(async () => {
    owner = await newOwner(app.api);
  });
  after(async () => {
    await worker.stop();
    await app.close();
  });

  it('search_suite: the next worker finds the post on the platform and records it; nothing is posted twice', async () => {
    const [location] = await connectLocations(app, owner);
    await sandboxPost(app, '/_sandbox/search_suite/faults', { faults: [{ kind: 'hang_after_create' }] });
    const created = await app.api.post('/posts', { token: owner.key, body: { text: 'Exactly once.', accountIds: [location], publishNow: true } });
    expect(created.status).to.equal(202);
    await until(async () => (await localPosts(app, location!, 'Exactly once.')).length === 1);
    const row = await app.services.db('postTargets').where({ postId: created.body.id }).first();
    expect(row.attemptStartedAt, 'the attempt was marked before the call').to.be.an.instanceOf(Date);
    await worker.crashAndReplace();
    const post = await waitForPost(app, owner, created.body.id, settled);
    const onPlatform = await localPosts(app, location!, 'Exactly once.');
    expect(onPlatform).to.have.length(1);
    expect(post.status).to.equal('published');
    expect(post.targets[0]).to.include({ platformPostId: onPlatform[0]!.name, attempts: 1 });
  });

  it('botchat: the platform cannot be asked, so the target fails as unknown instead of sending again; a retry is the user\'s call', async () => {
    const bot = await connectBot(app, owner);
    await sandboxPost(app, '/_sandbox/botchat/faults', { token: bot.token, faults: [{ kind: 'hang_after_send' }] });
    const created = await app.api.post('/posts', { token: owner.key, body: { text: 'Once, please.', accountIds: [bot.accountId], publishNow: true, platformOptions: { botchat: { chatIds: ['31'] } } } });
    await until(async () => (await botMessages(app, bot.token)).length === 1);
    await worker.crashAndReplace();
    const post = await waitForPost(app, owner, created.body.id, settled);
    expect(post.status).to.equal('failed');
    expect(post.targets[0].failure).to.include({ code: 'unknown', action: 'none', retryable: true });
    expect(post.targets[0].failure.message).to.match(/unknown/);
    expect(await botMessages(app, bot.token)).to.have.length(1);

    const retried = await app.api.post(`/posts/${created.body.id}/retry`, { token: owner.key });
    expect(retried.status).to.equal(202);
    expect((await waitForPost(app, owner, created.body.id, settled)).status).to.equal('published');
    expect(await botMessages(app, bot.token)).to.have.length(2);
  });

  it('botchat: a 500 (the bot API may or may not have sent it) fails at once as unknown; a 429 is retried after retry_after', async () => {
    const bot = await connectBot(app, owner);
    await sandboxPost(app, '/_sandbox/botchat/faults', { token: bot.token, faults: [{ kind: 'server_error' }] });
    const first = await app.api.post('/posts', { token: owner.key, body: { text: 'Maybe.', accountIds: [bot.accountId], publishNow: true, platformOptions: { botchat: { chatIds: ['32'] } } } });
    const failed = await waitForPost(app, owner, first.body.id, settled);
    expect(failed.targets[0]).to.include({ status: 'failed', attempts: 1 });
    expect(failed.targets[0].failure).to.include({ code: 'unknown', platformCode: null });

    await sandboxPost(app, '/_sandbox/botchat/faults', { token: bot.token, faults: [{ kind: 'rate_limited', retryAfter: 1 }] });
    const second = await app.api.post('/posts', { token: owner.key, body: { text: 'Soon.', accountIds: [bot.accountId], publishNow: true, platformOptions: { botchat: { chatIds: ['32'] } } } });
    const published = await waitForPost(app, owner, second.body.id, settled);
    expect(published.targets[0]).to.include({ status: 'published', attempts: 2 });
    expect((await botMessages(app, bot.token)).map((m) => m.text)).to.deep.equal(['Soon.']);
  });
});
