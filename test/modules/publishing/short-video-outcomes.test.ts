import { expect } from 'chai';
import { accountOnceIn } from '../../support/accounts.js';
import { CrashableWorker } from '../../support/crashable-worker.js';
import { describeApi } from '../../support/harness.js';
import { connectCreator, type Creator } from '../../support/sandbox/short-video.js';
import { until } from '../../support/wait.js';
import { settled, waitForPost } from './posts-support.js';
import { fixture, uploadMedia, VIDEO } from './support.js';

describeApi(
  "short_video — failures, retries, a lost answer, and the account's history",
  { settings: { publishing: { leaseSeconds: 1 } } },
  (t) => {
    const { shortVideo } = t.sandbox;
    let worker: CrashableWorker;

    before(async () => {
      worker = await CrashableWorker.standIn(t.app, 'publishing');
    });
    beforeEach(() => shortVideo.configure({ processingMs: 0, unaudited: false, rateLimited: false }));
    after(async () => {
      await worker.stop();
    });

    async function post(creator: Creator, mediaIds: string[], text = 'A clip.', privacyLevel = 'PUBLIC_TO_EVERYONE') {
      const created = await t.app.api.post('/posts', {
        token: t.owner.key,
        body: { text, mediaIds, accountIds: [creator.accountId], publishNow: true, platformOptions: { short_video: { privacyLevel } } },
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(202);
      return created.body.id as string;
    }
    const faults = (creator: Creator, list: unknown[]) => shortVideo.failNext(creator.openId, list);

    describe('what the platform refuses, and what the user can do about it', () => {
      it("maps the init's refusals and the processing's fail_reason, keeping the platform's code", async () => {
        const creator = await connectCreator(t.app, t.owner);
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        await faults(creator, [
          { kind: 'init_refused', code: 'spam_risk_too_many_posts', message: 'The user has reached the daily post limit.' },
          { kind: 'init_refused', code: 'spam_risk_user_banned_from_posting', message: 'The user is banned from posting.' },
          { kind: 'fail', reason: 'frame_rate_check_failed' },
          { kind: 'fail', reason: 'internal' },
        ]);
        const expected = [
          { code: 'rate_limited', action: 'retry_later', platformCode: 'spam_risk_too_many_posts' },
          { code: 'policy_violation', action: 'edit_post', platformCode: 'spam_risk_user_banned_from_posting' },
          { code: 'media_invalid', action: 'edit_post', platformCode: 'frame_rate_check_failed' },
          { code: 'media_processing_failed', action: 'retry_later', platformCode: 'internal' },
        ];
        for (const failure of expected) {
          const done = await waitForPost(t.app, t.owner, await post(creator, [video]), settled);
          expect(done.status).to.equal('failed');
          // Refusals the platform states are final: one attempt, no retry that cannot help.
          expect(done.targets[0]).to.include({ attempts: 1 });
          expect(done.targets[0].failure).to.include(failure);
        }
        const { posts, inits } = await shortVideo.onPlatform(creator.openId);
        expect(posts).to.have.length(0);
        expect(inits.map((init) => init.failReason)).to.deep.equal(['frame_rate_check_failed', 'internal']);
      });

      it('photos the platform cannot download from their public URL fail as media_processing_failed (photo_pull_failed)', async () => {
        const creator = await connectCreator(t.app, t.owner);
        const photo = await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg');
        // The file is gone from storage: its public URL answers no photo.
        const { storageFor, storageKeyFor } = await import('../../../src/modules/media/storage.js');
        await storageFor(t.app.services.config).delete(storageKeyFor(photo));
        const done = await waitForPost(t.app, t.owner, await post(creator, [photo], 'Lost cup.', 'SELF_ONLY'), settled);
        expect(done.targets[0].failure).to.include({ code: 'media_processing_failed', platformCode: 'photo_pull_failed' });
        expect((await shortVideo.onPlatform(creator.openId)).posts).to.have.length(0);
      });

      it('a processing failure retried by the user starts a new upload, and publishes once', async () => {
        const creator = await connectCreator(t.app, t.owner);
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        await faults(creator, [{ kind: 'fail', reason: 'internal' }]);
        const id = await post(creator, [video]);
        expect((await waitForPost(t.app, t.owner, id, settled)).status).to.equal('failed');
        expect((await t.app.api.post(`/posts/${id}/retry`, { token: t.owner.key })).status).to.equal(202);
        const done = await waitForPost(t.app, t.owner, id, settled);
        expect(done.status).to.equal('published');
        const { posts, inits } = await shortVideo.onPlatform(creator.openId);
        expect(inits.map((init) => init.status)).to.deep.equal(['FAILED', 'PUBLISH_COMPLETE']);
        expect(posts).to.have.length(1);
        expect(done.targets[0].platformPostId).to.equal(posts[0]!.id);
      });

      it('an expired or revoked token fails the target with reconnect_account and marks the account needs_reconnection', async () => {
        const creator = await connectCreator(t.app, t.owner);
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        await shortVideo.removeApp(creator.openId, { webhook: false });
        const done = await waitForPost(t.app, t.owner, await post(creator, [video]), settled);
        expect(done.targets[0].failure).to.include({
          code: 'account_needs_reconnection',
          action: 'reconnect_account',
          platformCode: 'access_token_invalid',
        });
        expect(await accountOnceIn(t.app, t.owner, creator.accountId, 'needs_reconnection')).to.include({ status: 'needs_reconnection' });
      });

      it('a 429 from the 6-a-minute init limit is retried later, not failed, and then publishes once', async () => {
        const creator = await connectCreator(t.app, t.owner);
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        const ids: string[] = [];
        for (let n = 0; n < 7; n += 1) ids.push(await post(creator, [video], `Clip ${n}.`));
        // Six inits fit in a minute; the seventh waits for the platform's minute to pass.
        await until(async () => (await shortVideo.onPlatform(creator.openId)).posts.length === 6);
        await until(
          async () => (await t.app.services.db('postTargets').whereIn('postId', ids).andWhere({ status: 'published' })).length === 6,
        );
        // No Retry-After from this platform: the retry comes after a minute, its limit's window.
        const waiting = await until(
          () => t.app.services.db('postTargets').whereIn('postId', ids).andWhere({ status: 'processing' }).first(),
          {
            done: (target) => target.attempts === 1 && target.dueAt.getTime() - Date.now() > 30_000,
            what: 'the seventh target to wait for a minute',
          },
        );
        expect((await shortVideo.onPlatform(creator.openId)).inits).to.have.length(6);
        // The minute passes (the platform forgets the inits; the target comes due).
        await shortVideo.minutePassed(creator.openId);
        await t.app.services.db('postTargets').where({ postId: waiting.postId }).update({ dueAt: new Date() });
        const done = await waitForPost(t.app, t.owner, waiting.postId, settled);
        expect(done.status).to.equal('published');
        expect((await shortVideo.onPlatform(creator.openId)).posts).to.have.length(7);
      });
    });

    describe('an answer lost on the way back', () => {
      it('a 500 on the video init: nothing can publish without the upload, so it is sent again — one post', async () => {
        const creator = await connectCreator(t.app, t.owner);
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        await faults(creator, [{ kind: 'server_error' }]);
        const done = await waitForPost(t.app, t.owner, await post(creator, [video]), settled);
        expect(done.status).to.equal('published');
        expect(done.targets[0].attempts).to.equal(2);
        expect((await shortVideo.onPlatform(creator.openId)).posts).to.have.length(1);
      });

      it("a worker dies waiting for the video init's answer: the next one inits again (the first upload never comes), one post", async () => {
        const creator = await connectCreator(t.app, t.owner);
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        await faults(creator, [{ kind: 'hang_after_init' }]);
        const id = await post(creator, [video]);
        await until(async () => (await shortVideo.onPlatform(creator.openId)).inits.length === 1);
        await worker.crashAndReplace();
        const done = await waitForPost(t.app, t.owner, id, settled);
        expect(done.status).to.equal('published');
        const { posts, inits } = await shortVideo.onPlatform(creator.openId);
        expect(inits.map((init) => init.status)).to.deep.equal(['PROCESSING', 'PUBLISH_COMPLETE']);
        expect(posts).to.have.length(1);
      });

      it('a worker dies after the last chunk went up: the next one asks the status by the saved publish_id, and inits nothing more', async () => {
        const creator = await connectCreator(t.app, t.owner);
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        await faults(creator, [{ kind: 'hang_after_upload' }]);
        const id = await post(creator, [video]);
        await until(async () => (await shortVideo.onPlatform(creator.openId)).posts.length === 1);
        const progress = (await t.app.services.db('postTargets').where({ postId: id }).first()).progress;
        expect(progress.publishId, 'the publish_id was saved right after the init').to.equal(
          (await shortVideo.onPlatform(creator.openId)).inits[0]!.publishId,
        );
        await worker.crashAndReplace();
        const done = await waitForPost(t.app, t.owner, id, settled);
        expect(done.status).to.equal('published');
        const { posts, inits } = await shortVideo.onPlatform(creator.openId);
        expect(inits).to.have.length(1);
        expect(posts).to.have.length(1);
        expect(done.targets[0]).to.include({ platformPostId: posts[0]!.id, attempts: 1 });
      });

      it("a worker dies waiting for a photo init's answer: the platform posts it anyway, and the target fails as unknown instead of posting twice", async () => {
        const creator = await connectCreator(t.app, t.owner);
        const photo = await uploadMedia(t.app, t.owner, fixture('tiny.jpg'), 'cup.jpg');
        await faults(creator, [{ kind: 'hang_after_init' }]);
        const id = await post(creator, [photo], 'One cup.', 'SELF_ONLY');
        await until(async () => (await shortVideo.onPlatform(creator.openId)).posts.length === 1);
        await worker.crashAndReplace();
        const done = await waitForPost(t.app, t.owner, id, settled);
        expect(done.status).to.equal('failed');
        expect(done.targets[0].failure.code).to.equal('unknown');
        expect(done.targets[0].failure).to.include({ action: 'none', retryable: true });
        expect(done.targets[0].failure.message).to.match(
          /outcome of the last attempt is unknown \(the platform did not answer the photo post's init/,
        );
        expect((await shortVideo.onPlatform(creator.openId)).posts).to.have.length(1);
      });
    });

    describe('the account on the platform', () => {
      it("history lists the public posts newest first, ours with their postId, one made in the app with postId null, with counts; pages by the platform's cursor", async () => {
        const creator = await connectCreator(t.app, t.owner);
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        const since = new Date(Date.now() - 1000).toISOString();
        const ours = await waitForPost(t.app, t.owner, await post(creator, [video], 'Made through the API.'), settled);
        await waitForPost(t.app, t.owner, await post(creator, [video], 'Only for me.', 'SELF_ONLY'), settled);
        await shortVideo.postInApp(creator.openId, 'Made in the app.');

        const history = await t.app.api.get(`/accounts/${creator.accountId}/history?from=${encodeURIComponent(since)}`, {
          token: t.owner.key,
        });
        expect(history.status, JSON.stringify(history.body)).to.equal(200);
        expect(history.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Made in the app.', 'Made through the API.']);
        const [inApp, throughUs] = history.body.data;
        expect(inApp).to.include({ platform: 'short_video', postId: null });
        expect(inApp.metrics).to.include({ views: 340, likes: 12, comments: 3, shares: 1, impressions: null });
        expect(throughUs).to.include({ postId: ours.id, platformPostId: ours.targets[0].platformPostId });

        const first = await t.app.api.get(`/accounts/${creator.accountId}/history?limit=1`, { token: t.owner.key });
        expect(first.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Made in the app.']);
        const second = await t.app.api.get(`/accounts/${creator.accountId}/history?limit=1&cursor=${first.body.nextCursor}`, {
          token: t.owner.key,
        });
        expect(second.body.data.map((p: { text: string }) => p.text)).to.deep.equal(['Made through the API.']);
        const future = await t.app.api.get(
          `/accounts/${creator.accountId}/history?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
          { token: t.owner.key },
        );
        expect(future.body).to.deep.equal({ data: [], nextCursor: null });
      });

      it('a public post held for review is recorded under its publish id; when the platform says it passed (webhook), it takes its public id and link, and history marks it ours', async () => {
        const creator = await connectCreator(t.app, t.owner);
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        await faults(creator, [{ kind: 'review' }]);
        const published = await waitForPost(t.app, t.owner, await post(creator, [video], 'Waiting for review.'), settled);
        expect(published.status).to.equal('published');
        const publishId = published.targets[0].platformPostId as string;
        expect(publishId).to.match(/^v_pub_file~/);
        expect(published.targets[0].url).to.equal(null);
        expect((await t.app.api.get(`/accounts/${creator.accountId}/history`, { token: t.owner.key })).body.data).to.deep.equal([]);

        const [held] = (await shortVideo.onPlatform(creator.openId)).posts;
        const reviewed = await shortVideo.passReview(held!.id);
        expect(reviewed.webhookStatus).to.equal(200);
        // The int64 id arrives as a JSON number; it must be kept to the digit.
        const after = await waitForPost(t.app, t.owner, published.id, (p) => p.targets[0].platformPostId !== publishId);
        expect(after.targets[0]).to.include({
          platformPostId: held!.id,
          url: `https://www.tiktok.com/@${creator.username}/video/${held!.id}`,
          status: 'published',
        });
        const history = await t.app.api.get(`/accounts/${creator.accountId}/history`, { token: t.owner.key });
        expect(history.body.data.map((p: { platformPostId: string; postId: string }) => [p.platformPostId, p.postId])).to.deep.equal([
          [held!.id, published.id],
        ]);
      });

      it('a creator who did not grant video.list: history says to connect again (502), and the account keeps publishing', async () => {
        const creator = await connectCreator(t.app, t.owner, { scope: 'user.info.basic,video.publish' });
        const { accountId } = creator;
        const history = await t.app.api.get(`/accounts/${accountId}/history`, { token: t.owner.key });
        expect(history.status).to.equal(502);
        expect(history.body.detail).to.match(/not granted video\.list/);
        expect((await t.app.api.get(`/accounts/${accountId}`, { token: t.owner.key })).body.status).to.equal('connected');
        const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
        const done = await waitForPost(t.app, t.owner, await post(creator, [video]), settled);
        expect(done.status).to.equal('published');
      });

      it('apps cannot delete posts on this platform: 422, and the post stays', async () => {
        const creator = await connectCreator(t.app, t.owner);
        const made = await shortVideo.postInApp(creator.openId, 'Keep me.');
        const response = await t.app.api.delete(`/accounts/${creator.accountId}/posts/${made.id}`, { token: t.owner.key });
        expect(response.status).to.equal(422);
        expect(response.body.code).to.equal('account_platform_unsupported');
        expect((await shortVideo.onPlatform(creator.openId)).posts).to.have.length(1);
      });
    });
  },
);
