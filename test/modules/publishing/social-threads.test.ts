import { expect } from 'chai';
import { accountOnceIn } from '../../support/accounts.js';
import { describeApi } from '../../support/harness.js';
import { connectThreads } from '../../support/sandbox/social-threads.js';
import { until } from '../../support/wait.js';
import { eventsOf, postNow, settled, waitForPost } from './posts-support.js';
import { animatedGif, fixture, png, uploadMedia, VIDEO } from './support.js';

describeApi('social_threads — publishing with media containers', (t) => {
  const { socialThreads } = t.sandbox;
  beforeEach(() => socialThreads.configurePublishing({ videoProcessingMs: 1500, quotaTotal: 250 }));

  const uploaded = (bytes: Buffer, filename: string, type: string) => uploadMedia(t.app, t.owner, bytes, filename, type);

  describe('publishing a post', () => {
    it('a text post: one TEXT container, published once with its reply control; the permalink is the url; events in order', async () => {
      const person = await connectThreads(t.app, t.owner);
      const post = await postNow(t.app, t.owner, {
        text: 'Fresh roast on Friday ☕',
        accountIds: [person.accountId],
        platformOptions: { social_threads: { replyControl: 'followers_only' } },
      });
      expect(post.status, JSON.stringify(post.targets)).to.equal('published');
      const [target] = post.targets;
      expect(target).to.include({ platform: 'social_threads', status: 'published', attempts: 1, failure: null });
      const onPlatform = await socialThreads.onPlatform(person.userId);
      expect(onPlatform.threads).to.have.length(1);
      expect(onPlatform.threads[0]).to.include({
        id: target.platformPostId,
        text: 'Fresh roast on Friday ☕',
        media_type: 'TEXT_POST',
        replyControl: 'followers_only',
      });
      expect(target.url).to.equal(onPlatform.threads[0]!.permalink);
      expect(onPlatform.containers.map((c) => `${c.mediaType}:${c.status}`)).to.deep.equal(['TEXT:PUBLISHED']);
      expect((await eventsOf(t.app, post.id)).map((e) => e.name)).to.deep.equal(['post.processing', 'post.published']);
    });

    it('an image post and a carousel: the platform fetches each image from its public url; a carousel is one item container per media', async () => {
      const person = await connectThreads(t.app, t.owner);
      const first = await uploaded(png(400, 300), 'beans.png', 'image/png');
      const second = await uploaded(
        png(320, 320, (x, y) => [x % 256, y % 256, 7]),
        'cups.png',
        'image/png',
      );
      const single = await postNow(t.app, t.owner, { text: 'Beans.', mediaIds: [first], accountIds: [person.accountId] });
      expect(single.status, JSON.stringify(single.targets)).to.equal('published');
      const carousel = await postNow(t.app, t.owner, {
        text: 'Beans and cups.',
        mediaIds: [first, second],
        accountIds: [person.accountId],
      });
      expect(carousel.status, JSON.stringify(carousel.targets)).to.equal('published');

      const onPlatform = await socialThreads.onPlatform(person.userId);
      expect(onPlatform.threads.map((t) => [t.text, t.media_type, t.children])).to.deep.equal([
        ['Beans and cups.', 'CAROUSEL_ALBUM', 2],
        ['Beans.', 'IMAGE', 0],
      ]);
      expect(onPlatform.threads[1]!.media_url).to.match(/^https:\/\//);
      expect(onPlatform.containers.map((c) => `${c.mediaType}${c.isCarouselItem ? '/item' : ''}`)).to.deep.equal([
        'IMAGE',
        'IMAGE/item',
        'IMAGE/item',
        'CAROUSEL',
      ]);
      expect(carousel.targets[0].platformPostId).to.equal(onPlatform.threads[0]!.id);
    });

    it('a video (alone or in a carousel) is processed for a while: the target waits without counting attempts, then publishes once', async () => {
      const person = await connectThreads(t.app, t.owner);
      const video = await uploaded(VIDEO, 'clip.mp4', 'video/mp4');
      const post = await postNow(t.app, t.owner, { text: 'Pouring.', mediaIds: [video], accountIds: [person.accountId] });
      expect(post.status, JSON.stringify(post.targets)).to.equal('published');
      expect(post.targets[0]).to.include({ attempts: 1 });
      const onPlatform = await socialThreads.onPlatform(person.userId);
      expect(onPlatform.threads.map((t) => t.media_type)).to.deep.equal(['VIDEO']);
      expect(onPlatform.containers.map((c) => `${c.mediaType}:${c.status}`)).to.deep.equal(['VIDEO:PUBLISHED']);

      // In a carousel the video item keeps the carousel container processing until it is done.
      const image = await uploaded(png(320, 320), 'still.png', 'image/png');
      const carousel = await postNow(t.app, t.owner, { text: 'Pour and cup.', mediaIds: [video, image], accountIds: [person.accountId] });
      expect(carousel.status, JSON.stringify(carousel.targets)).to.equal('published');
      expect(carousel.targets[0]).to.include({ attempts: 1 });
      const after = await socialThreads.onPlatform(person.userId);
      expect(after.threads.map((t) => `${t.media_type}:${t.children}`)).to.deep.equal(['CAROUSEL_ALBUM:2', 'VIDEO:0']);
      expect(after.containers.map((c) => `${c.mediaType}${c.isCarouselItem ? '/item' : ''}`)).to.deep.equal([
        'VIDEO',
        'VIDEO/item',
        'IMAGE/item',
        'CAROUSEL',
      ]);
    });

    it('a container that expired while processing is replaced by a new one, and the post publishes once', async () => {
      const person = await connectThreads(t.app, t.owner);
      await socialThreads.configurePublishing({ videoProcessingMs: 600_000 });
      const video = await uploaded(VIDEO, 'clip.mp4', 'video/mp4');
      const created = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: 'Slow pour.', mediaIds: [video], accountIds: [person.accountId], publishNow: true },
      });
      await until(async () => (await socialThreads.onPlatform(person.userId)).containers.length > 0, { what: 'a container to be made' });
      await socialThreads.configurePublishing({ videoProcessingMs: 0 });
      expect(await socialThreads.expireContainers(person.userId)).to.equal(1);
      const post = await waitForPost(t.app, t.owner, created.body.id, settled, 20_000);
      expect(post.status, JSON.stringify(post.targets)).to.equal('published');
      const onPlatform = await socialThreads.onPlatform(person.userId);
      expect(onPlatform.containers.map((c) => c.status)).to.deep.equal(['EXPIRED', 'PUBLISHED']);
      expect(onPlatform.threads).to.have.length(1);
    });
  });

  describe('what the platform refuses', () => {
    it('refuses text over 500 characters (emoji count as one) and a GIF before anything is posted (422, precise paths)', async () => {
      const person = await connectThreads(t.app, t.owner);
      const gif = await uploaded(animatedGif(2, 10), 'spin.gif', 'image/gif');
      const image = await uploaded(png(320, 320), 'a.png', 'image/png');
      const response = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: '☕'.repeat(501), mediaIds: [image, gif], accountIds: [person.accountId], publishNow: true },
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(422);
      const rules = response.body.errors.map((e: { code: string; path: string; limit?: number }) => `${e.path}:${e.code}:${e.limit ?? ''}`);
      expect(rules).to.deep.equal(['body/text:max_length:500', 'body/mediaIds/1:media_type:']);
      const exactly = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text: '☕'.repeat(500), accountIds: [person.accountId], publishNow: true },
      });
      expect(exactly.status, JSON.stringify(exactly.body)).to.equal(202);
    });

    it('refuses a video of 10 frames a second (media_format, limit 23) before anything is posted', async () => {
      const person = await connectThreads(t.app, t.owner);
      const slow = await uploaded(fixture('tiny.mp4'), 'slow.mp4', 'video/mp4');
      const response = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { mediaIds: [slow], accountIds: [person.accountId], publishNow: true },
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(422);
      expect(response.body.errors).to.deep.equal([
        {
          path: 'body/mediaIds/0',
          code: 'media_format',
          limit: 23,
          accountId: person.accountId,
          platform: 'social_threads',
          message: 'The video has 10 frames a second; social_threads takes 23 to 60.',
        },
      ]);
      expect((await socialThreads.onPlatform(person.userId)).containers).to.have.length(0);
    });

    it("processing that fails is media_processing_failed with the platform's message; a retry makes a new container and publishes", async () => {
      const person = await connectThreads(t.app, t.owner);
      await socialThreads.failNext(person.userId, [{ kind: 'processing_error', errorMessage: 'INVALID_FRAME_RATE' }]);
      const video = await uploaded(VIDEO, 'clip.mp4', 'video/mp4');
      const failed = await postNow(t.app, t.owner, { text: 'Jittery.', mediaIds: [video], accountIds: [person.accountId] });
      expect(failed.status).to.equal('failed');
      expect(failed.targets[0].failure).to.include({
        code: 'media_processing_failed',
        action: 'retry_later',
        retryable: true,
        platformCode: 'INVALID_FRAME_RATE',
      });
      expect(failed.targets[0].failure.message).to.include('INVALID_FRAME_RATE');
      expect((await socialThreads.onPlatform(person.userId)).threads).to.have.length(0);

      expect((await t.app.api.post(`/posts/${failed.id}/retry`, { token: t.owner.key })).status).to.equal(202);
      const retried = await waitForPost(t.app, t.owner, failed.id, (p) => p.status === 'published', 20_000);
      expect(retried.targets[0].status).to.equal('published');
      const onPlatform = await socialThreads.onPlatform(person.userId);
      expect(onPlatform.containers.map((c) => c.status)).to.deep.equal(['ERROR', 'PUBLISHED']);
      expect(onPlatform.threads).to.have.length(1);
    });

    it("media the platform cannot fetch is media_invalid with Graph's code and subcode", async () => {
      const person = await connectThreads(t.app, t.owner);
      const image = await uploaded(png(320, 320), 'gone.png', 'image/png');
      const created = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: {
          text: 'Where did it go?',
          mediaIds: [image],
          accountIds: [person.accountId],
          scheduledAt: new Date(Date.now() + 3000).toISOString(),
        },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      // The file's link stops working before the platform fetches it.
      await t.app.services.db('media').where({ id: image }).update({ token: 'no-longer-valid' });
      const post = await waitForPost(t.app, t.owner, created.body.id, settled, 20_000);
      expect(post.targets[0].failure).to.include({
        code: 'media_invalid',
        action: 'edit_post',
        retryable: false,
        platformCode: '100/2207052',
      });
      expect((await socialThreads.onPlatform(person.userId)).containers).to.have.length(0);
    });

    it('the publishing quota (code 4) is rate_limited: retried with the same container, then published once', async () => {
      const person = await connectThreads(t.app, t.owner);
      await socialThreads.failNext(person.userId, [{ kind: 'rate_limited' }]);
      const post = await postNow(t.app, t.owner, { text: 'After the limit.', accountIds: [person.accountId] });
      expect(post.status, JSON.stringify(post.targets)).to.equal('published');
      expect(post.targets[0].attempts).to.equal(2);
      const onPlatform = await socialThreads.onPlatform(person.userId);
      expect(onPlatform.containers).to.have.length(1);
      expect(onPlatform.threads.map((t) => t.text)).to.deep.equal(['After the limit.']);
    });

    it('250 posts a day: a post over the quota fails as rate_limited (platform code 4) after its retries', async () => {
      const person = await connectThreads(t.app, t.owner);
      await socialThreads.configurePublishing({ quotaTotal: 1 });
      expect((await postNow(t.app, t.owner, { text: 'The only one today.', accountIds: [person.accountId] })).status).to.equal('published');
      const over = await postNow(t.app, t.owner, { text: 'One too many.', accountIds: [person.accountId] });
      expect(over.status).to.equal('failed');
      expect(over.targets[0].failure).to.include({ code: 'rate_limited', action: 'retry_later', platformCode: '4' });
      expect((await socialThreads.onPlatform(person.userId)).threads.map((t) => t.text)).to.deep.equal(['The only one today.']);
    });

    it('a token the person revoked (190/458) fails the target as account_needs_reconnection and marks the account', async () => {
      const person = await connectThreads(t.app, t.owner);
      await socialThreads.removeApp(person.userId);
      const post = await postNow(t.app, t.owner, { text: 'Nobody home.', accountIds: [person.accountId] });
      expect(post.targets[0].failure).to.include({
        code: 'account_needs_reconnection',
        action: 'reconnect_account',
        platformCode: '190/458',
      });
      expect(await accountOnceIn(t.app, t.owner, person.accountId, 'needs_reconnection')).to.include({ status: 'needs_reconnection' });
    });

    it("a lost answer (500 after publishing) is reconciled from the container's status: published once, not twice", async () => {
      const person = await connectThreads(t.app, t.owner);
      await socialThreads.failNext(person.userId, [{ kind: 'error_after_publish' }]);
      const post = await postNow(t.app, t.owner, { text: 'Exactly once, please.', accountIds: [person.accountId] });
      expect(post.status, JSON.stringify(post.targets)).to.equal('published');
      const onPlatform = await socialThreads.onPlatform(person.userId);
      expect(onPlatform.threads).to.have.length(1);
      expect(post.targets[0].platformPostId).to.equal(onPlatform.threads[0]!.id);
      expect(onPlatform.containers).to.have.length(1);
    });
  });
});
