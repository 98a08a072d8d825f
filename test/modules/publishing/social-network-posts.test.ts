import { expect } from 'chai';
import { accountOnceIn, storedAccount } from '../../support/accounts.js';
import { describeApi } from '../../support/harness.js';
import { connectNewPage, type ConnectedPage } from '../../support/sandbox/social-network.js';
import { until } from '../../support/wait.js';
import { eventsOf, settled, waitForPost } from './posts-support.js';
import { FileServer, uploadPhoto, uploadVideo } from './support.js';

describeApi('posts — social_network pages', (t) => {
  const { socialNetwork } = t.sandbox;
  let page: ConnectedPage;
  let files: FileServer;

  before(async () => {
    files = await FileServer.start();
    files.serve('/winter-blend', Buffer.from('<html><title>Winter blend</title></html>'), 'text/html');
  });
  beforeEach(async () => {
    page = await connectNewPage(t.app, t.owner);
  });
  after(async () => {
    await files.close();
  });

  /** When the target is next due, once its first attempt has been answered and a retry planned. */
  async function dueOnceRetried(postId: string): Promise<Date> {
    const target = await until(() => t.app.services.db('postTargets').where({ postId }).first(), {
      done: (row) => row.attempts === 1 && row.dueAt && row.dueAt.getTime() > Date.now() + 60_000,
      what: 'a retry to be planned',
    });
    return target.dueAt;
  }

  async function publishNow(body: Record<string, unknown>): Promise<any> {
    const created = await t.app.api.post('/posts', {
      token: t.owner.key,
      body: { accountIds: [page.accountId], publishNow: true, ...body },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    return waitForPost(t.app, t.owner, created.body.id, settled, 15_000);
  }

  describe('publishing', () => {
    it("posts text to the page's feed, once, with its id and permalink", async () => {
      const post = await publishNow({ text: 'Open until 8 today.' });
      expect(post.status).to.equal('published');
      const { posts } = await socialNetwork.onPlatform(page.pageId);
      expect(posts.map((p) => p.message)).to.deep.equal(['Open until 8 today.']);
      expect(post.targets[0]).to.include({ status: 'published', platformPostId: posts[0]!.id, attempts: 1 });
      expect(post.targets[0].platformPostId).to.match(new RegExp(`^${page.pageId}_\\d+$`));
      expect(post.targets[0].url).to.match(/^https:\/\/social\.example\/.+\/posts\/\d+$/);
      expect((await eventsOf(t.app, post.id)).map((e) => e.name)).to.deep.equal(['post.processing', 'post.published']);
    });

    it('attaches a link the platform can fetch; a link it cannot fetch fails the target as link_unreachable', async () => {
      const link = `${files.httpUrl}/winter-blend`;
      const post = await publishNow({ text: 'New this week.', platformOptions: { social_network: { link } } });
      expect(post.status).to.equal('published');
      expect((await socialNetwork.onPlatform(page.pageId)).posts[0]).to.include({ message: 'New this week.', link });

      const broken = await publishNow({ text: 'Gone.', platformOptions: { social_network: { link: `${files.httpUrl}/nothing-here` } } });
      expect(broken.status).to.equal('failed');
      expect(broken.targets[0].failure).to.include({ code: 'link_unreachable', platformCode: '1609005', action: 'edit_post' });
      expect((await socialNetwork.onPlatform(page.pageId)).posts).to.have.length(1);
    });

    it('posts one photo through /photos, the platform fetching it from our media URL', async () => {
      const mediaId = await uploadPhoto(t.app, t.owner);
      const post = await publishNow({ text: 'Fresh beans.', mediaIds: [mediaId] });
      expect(post.status).to.equal('published');
      const [made] = (await socialNetwork.onPlatform(page.pageId)).posts;
      expect(made).to.include({ message: 'Fresh beans.', id: post.targets[0].platformPostId });
      expect(made!.photoUrls).to.have.length(1);
      expect(made!.photoUrls[0]).to.include(`/media/${mediaId}/file?token=`);
    });

    it('posts several photos as one post; a refused last step resumes with the photos already uploaded', async () => {
      const mediaIds = [
        await uploadPhoto(t.app, t.owner, 'a.png'),
        await uploadPhoto(t.app, t.owner, 'b.png'),
        await uploadPhoto(t.app, t.owner, 'c.png'),
      ];
      await socialNetwork.failNext(page.pageId, [{ kind: 'rate_limited', edge: 'feed' }]);
      const post = await publishNow({ text: 'Three roasts.', mediaIds });
      expect(post.status).to.equal('published');
      expect(post.targets[0]).to.include({ attempts: 2 });
      const contents = await socialNetwork.onPlatform(page.pageId);
      expect(contents.posts).to.have.length(1);
      expect(contents.posts[0]!.photoUrls.map((url) => url.match(/media\/([^/]+)\/file/)![1])).to.deep.equal(mediaIds);
      expect(contents).to.include({ photosUploaded: 3, unpublishedPhotos: 0 });
    });

    it('posts a video the platform fetches and processes: checked again while it processes, published when ready', async () => {
      const mediaId = await uploadVideo(t.app, t.owner);
      const post = await publishNow({ text: 'Latte art.', mediaIds: [mediaId] });
      expect(post.status).to.equal('published');
      const contents = await socialNetwork.onPlatform(page.pageId);
      expect(contents.videos).to.have.length(1);
      expect(contents.videos[0]).to.include({ status: 'ready' });
      expect(post.targets[0]).to.include({ platformPostId: contents.videos[0]!.postId, attempts: 1 });
      expect(contents.posts.map((p) => p.message)).to.deep.equal(['Latte art.']);
    });

    it('a video whose processing fails fails the target as media_processing_failed', async () => {
      const mediaId = await uploadVideo(t.app, t.owner);
      await socialNetwork.failNext(page.pageId, [{ kind: 'video_processing_error' }]);
      const post = await publishNow({ text: 'Broken clip.', mediaIds: [mediaId] });
      expect(post.status).to.equal('failed');
      expect(post.targets[0].failure).to.include({ code: 'media_processing_failed', action: 'retry_later', retryable: true });
      expect(post.targets[0].failure.message).to.match(/could not be processed/);
    });
  });

  describe('the first comment', () => {
    it('comes under the post as the page', async () => {
      const post = await publishNow({
        text: 'Tasting on Friday.',
        platformOptions: { social_network: { firstComment: 'Book at acme.coffee' } },
      });
      expect(post.status).to.equal('published');
      const [made] = (await socialNetwork.onPlatform(page.pageId)).posts;
      expect(made!.comments.map((c) => [c.message, c.fromPage])).to.deep.equal([['Book at acme.coffee', true]]);
    });

    it('failing once is tried again on the next look without posting again', async () => {
      await socialNetwork.failNext(page.pageId, [{ kind: 'comment_fails', code: 1 }]);
      const post = await publishNow({ text: 'Second try.', platformOptions: { social_network: { firstComment: 'Details inside' } } });
      expect(post.status).to.equal('published');
      expect(post.targets[0]).to.include({ attempts: 1 });
      const { posts } = await socialNetwork.onPlatform(page.pageId);
      expect(posts).to.have.length(1);
      expect(posts[0]!.comments.map((c) => c.message)).to.deep.equal(['Details inside']);
    });

    it('made but its answer lost is found on the next look, not made twice', async () => {
      await socialNetwork.failComments(page.pageId, [{ kind: 'lost_answer' }]);
      const post = await publishNow({ text: 'Lost answer.', platformOptions: { social_network: { firstComment: 'Said once' } } });
      expect(post.status).to.equal('published');
      const { posts } = await socialNetwork.onPlatform(page.pageId);
      expect(posts).to.have.length(1);
      expect(posts[0]!.comments.map((c) => c.message)).to.deep.equal(['Said once']);
    });

    it('refused by the platform leaves the post published, without the comment', async () => {
      await socialNetwork.failNext(page.pageId, [{ kind: 'comment_fails', code: 368 }]);
      const post = await publishNow({ text: 'No comment.', platformOptions: { social_network: { firstComment: 'Blocked' } } });
      expect(post.status).to.equal('published');
      const { posts } = await socialNetwork.onPlatform(page.pageId);
      expect(posts).to.have.length(1);
      expect(posts[0]!.comments).to.deep.equal([]);
    });
  });

  describe('failures', () => {
    it('an expired or revoked page token (190) fails the target and the account needs reconnection', async () => {
      await socialNetwork.revokeToken((await storedAccount(t.app, page.accountId)).credentials.accessToken);
      const post = await publishNow({ text: 'Anyone there?' });
      expect(post.status).to.equal('failed');
      expect(post.targets[0].failure).to.include({ code: 'account_needs_reconnection', platformCode: '190', action: 'reconnect_account' });
      expect(await accountOnceIn(t.app, t.owner, page.accountId, 'needs_reconnection')).to.include({ status: 'needs_reconnection' });
      expect((await socialNetwork.onPlatform(page.pageId)).posts).to.have.length(0);
    });

    it('a permission missing at the platform (200) asks for reconnection too', async () => {
      // The next Graph call is the post: the permission webhook of a real revocation may beat it, so the refusal is injected.
      await socialNetwork.failNextCall({
        status: 403,
        code: 200,
        message: '(#200) Requires pages_manage_posts permission to manage the object',
      });
      const post = await publishNow({ text: 'Not allowed.' });
      expect(post.targets[0].failure).to.include({ code: 'account_needs_reconnection', platformCode: '200' });
    });

    it("a duplicate of the page's last post (506) is refused as duplicate_content", async () => {
      expect((await publishNow({ text: 'Same again.' })).status).to.equal('published');
      const again = await publishNow({ text: 'Same again.' });
      expect(again.status).to.equal('failed');
      expect(again.targets[0].failure).to.include({
        code: 'duplicate_content',
        platformCode: '506',
        action: 'edit_post',
        retryable: false,
      });
      expect((await socialNetwork.onPlatform(page.pageId)).posts).to.have.length(1);
    });

    it('a policy block (368) is refused as policy_violation', async () => {
      await socialNetwork.failNext(page.pageId, [{ kind: 'policy' }]);
      const post = await publishNow({ text: 'Too much.' });
      expect(post.targets[0].failure).to.include({ code: 'policy_violation', platformCode: '368' });
    });

    it("throttling (32) is retried, and not before the usage header's estimated_time_to_regain_access", async () => {
      await socialNetwork.failNext(page.pageId, [{ kind: 'rate_limited' }]);
      const soon = await publishNow({ text: 'After the throttle.' });
      expect(soon.targets[0]).to.include({ status: 'published', attempts: 2 });

      await socialNetwork.failNext(page.pageId, [{ kind: 'rate_limited', minutes: 7 }]);
      const created = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: 'Much later.', accountIds: [page.accountId], publishNow: true },
      });
      // Retried no sooner than the platform said (7 minutes), not after the 1 s of the schedule.
      const due = await dueOnceRetried(created.body.id);
      expect(due.getTime() - Date.now()).to.be.within(6 * 60_000, 7 * 60_000);
      expect((await socialNetwork.onPlatform(page.pageId)).posts.map((p) => p.message)).to.deep.equal(['After the throttle.']);
    });

    it("checks the platform's limits before accepting the post", async () => {
      const photos = await Promise.all(Array.from({ length: 11 }, (_, i) => uploadPhoto(t.app, t.owner, `p${i}.png`)));
      const tooMany = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: 'x', mediaIds: photos, accountIds: [page.accountId], publishNow: true },
      });
      expect(tooMany.status).to.equal(422);
      expect(tooMany.body.errors).to.deep.include({
        path: 'body/mediaIds',
        code: 'media_count',
        limit: 10,
        accountId: page.accountId,
        platform: 'social_network',
        message: 'The post has 11 photos; a social_network post takes up to 10.',
      });
      const both = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: {
          text: 'x',
          mediaIds: [photos[0]],
          accountIds: [page.accountId],
          publishNow: true,
          platformOptions: { social_network: { link: 'https://acme.example/' } },
        },
      });
      expect(both.status).to.equal(422);
      expect(both.body.errors[0]).to.include({ path: 'body/platformOptions/social_network/link', code: 'option_not_allowed' });
      // The contract caps text at 10,000 characters, below the platform's 63,206, so only the media rules are reachable here.
      const mixed = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: 'x', mediaIds: [photos[0], await uploadVideo(t.app, t.owner)], accountIds: [page.accountId], publishNow: true },
      });
      expect(mixed.status).to.equal(422);
      expect(mixed.body.errors[0]).to.include({
        path: 'body/mediaIds',
        code: 'media_count',
        message: 'A social_network post has either photos or one video, not both.',
      });
    });
  });
});
