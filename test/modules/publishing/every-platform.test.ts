import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { connectCreator } from '../../support/sandbox/short-video.js';
import { connectNewPage } from '../../support/sandbox/social-network.js';
import { connectThreads } from '../../support/sandbox/social-threads.js';
import { eventsOf, settled, waitForPost } from './posts-support.js';
import { fixture, uploadMedia } from './support.js';

describeApi('one post to every kind of platform at once', (t) => {
  const { botchat, shortVideo, socialNetwork, socialThreads } = t.sandbox;

  it('a photo with its text goes to a bot, a page, a threads profile and a short-video creator: each has it once, with its platform id; deletion goes where apps may delete', async () => {
    const [bot, page, threads, creator] = [
      await connectBot(t.app, t.owner),
      await connectNewPage(t.app, t.owner),
      await connectThreads(t.app, t.owner),
      await connectCreator(t.app, t.owner),
    ];
    const photo = await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg');
    const text = 'The winter blend, poured.';
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: {
        text,
        mediaIds: [photo],
        publishNow: true,
        accountIds: [bot.accountId, page.accountId, threads.accountId, creator.accountId],
        platformOptions: {
          botchat: { chatIds: ['5150'] },
          social_network: { firstComment: 'Order at acme.example' },
          social_threads: { replyControl: 'accounts_you_follow' },
          short_video: { privacyLevel: 'SELF_ONLY', title: 'Winter blend' },
        },
      },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const post = await waitForPost(t.app, t.owner, created.body.id, settled, 20_000);
    expect(post.status, JSON.stringify(post.targets)).to.equal('published');
    expect(post.targets.map((t: { platform: string; status: string }) => [t.platform, t.status])).to.deep.equal([
      ['botchat', 'published'],
      ['social_network', 'published'],
      ['social_threads', 'published'],
      ['short_video', 'published'],
    ]);
    const [botTarget, pageTarget, threadsTarget, videoTarget] = post.targets;

    const messages = await botchat.onPlatform(bot.token);
    expect(messages).to.have.length(1);
    expect(messages[0]).to.include({ caption: text });
    expect(botTarget.platformPostId).to.equal(`5150:${messages[0]!.messageId}`);

    const onPage = (await socialNetwork.onPlatform(page.pageId)).posts.filter((p) => !p.deleted);
    expect(onPage).to.have.length(1);
    expect(onPage[0]).to.deep.include({ id: pageTarget.platformPostId, message: text });
    expect(onPage[0]!.photoUrls).to.have.length(1);
    expect(onPage[0]!.comments.map((c) => [c.message, c.fromPage])).to.deep.equal([['Order at acme.example', true]]);

    const onThreads = (await socialThreads.onPlatform(threads.userId)).threads;
    expect(onThreads).to.have.length(1);
    expect(onThreads[0]).to.include({ id: threadsTarget.platformPostId, text, media_type: 'IMAGE', replyControl: 'accounts_you_follow' });

    const onShortVideo = (await shortVideo.onPlatform(creator.openId)).posts;
    expect(onShortVideo).to.have.length(1);
    expect(onShortVideo[0]).to.include({ kind: 'photo', title: 'Winter blend', description: text, privacyLevel: 'SELF_ONLY' });
    expect(videoTarget.platformPostId).to.be.a('string');

    expect((await eventsOf(t.app, post.id)).map((e) => e.name)).to.deep.equal(['post.processing', 'post.published']);

    // The page and the threads profile list it as ours.
    for (const target of [pageTarget, threadsTarget]) {
      const history = await t.app.api.get(`/accounts/${target.accountId}/history`, { token: t.owner.key });
      expect(history.status, JSON.stringify(history.body)).to.equal(200);
      expect(history.body.data.find((p: { platformPostId: string }) => p.platformPostId === target.platformPostId)).to.include({
        postId: post.id,
        text,
      });
    }

    const deleted = await t.app.api.delete(`/posts/${post.id}`, { token: t.owner.key });
    expect(deleted.status).to.equal(200);
    expect(deleted.body.targets.map((t: { platform: string; result: string }) => [t.platform, t.result])).to.deep.equal([
      ['botchat', 'deleted'],
      ['social_network', 'deleted'],
      ['social_threads', 'deleted'],
      ['short_video', 'not_supported'],
    ]);
    expect((await botchat.onPlatform(bot.token))[0]!.deleted).to.equal(true);
    expect((await socialNetwork.onPlatform(page.pageId)).posts.filter((p) => !p.deleted)).to.have.length(0);
    expect((await socialThreads.onPlatform(threads.userId)).threads).to.have.length(0);
    expect((await shortVideo.onPlatform(creator.openId)).posts).to.have.length(1);
  });
});
