import { expect } from 'chai';
import { saveConnectedAdAccount } from '../../../src/modules/accounts/ad-accounts.js';
import { ownerItself } from '../../../src/modules/auth/principal.js';
import { describeApi } from '../../support/harness.js';
import { connectNewAdAccount, MarketingPeople } from '../../support/sandbox/marketing.js';
import { until } from '../../support/wait.js';
import { uploadPhoto, uploadVideo } from '../publishing/support.js';

describeApi(
  'createAdCreative — POST /ads/adcreatives',
  { settings: { adCreatives: { videoPollMs: 200, videoDeadlineSeconds: 60, leaseSeconds: 5, concurrency: 5 } } },
  (t) => {
    const marketing = new MarketingPeople(() => t.app);
    const create = (body: Record<string, unknown>, idempotencyKey?: string) =>
      t.app.api.post('/ads/adcreatives', {
        token: t.owner.key,
        body,
        ...(idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {}),
      });
    const task = (taskId: string) => t.app.api.get(`/ads/adcreatives/tasks/${taskId}`, { token: t.owner.key });

    it('promotes an existing page post (objectStoryId): 201 with the platform ids', async () => {
      const ad = await connectNewAdAccount(t.app, t.owner);
      const post = await t.sandbox.socialNetwork.postInApp(ad.pageId, 'Our winter blend is back');
      const created = await create({ adAccountId: ad.adAccountId, name: 'Boost winter', objectStoryId: post.id });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.include({
        adAccountId: ad.adAccountId,
        platform: 'social_network',
        name: 'Boost winter',
        objectStoryId: post.id,
        objectStorySpec: null,
        effectiveObjectStoryId: post.id,
      });
      expect(created.body.id).to.match(/^\d+$/);
    });

    it('adds our image to the ad account image library first, and builds the link ad with its hash', async () => {
      const ad = await connectNewAdAccount(t.app, t.owner);
      const mediaId = await uploadPhoto(t.app, t.owner);
      const spec = {
        pageId: ad.pageId,
        linkData: { link: 'https://acme.example/winter', message: 'Back!', mediaId, callToAction: { type: 'SHOP_NOW' } },
      };
      const created = await create({ adAccountId: ad.adAccountId, name: 'Winter link', objectStorySpec: spec });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.objectStorySpec).to.deep.equal(spec);
      expect(created.body.effectiveObjectStoryId).to.match(new RegExp(`^${ad.pageId}_\\d+$`));
      expect((await marketing.onPlatform(ad.platformAdAccountId)).images).to.have.length(1);
    });

    it('refuses media of the wrong kind (400) and media not the caller’s (404), before anything reaches the platform', async () => {
      const ad = await connectNewAdAccount(t.app, t.owner);
      const videoId = await uploadVideo(t.app, t.owner);
      const wrong = await create({
        adAccountId: ad.adAccountId,
        name: 'Photo',
        objectStorySpec: { pageId: ad.pageId, photoData: { mediaId: videoId } },
      });
      expect(wrong.status).to.equal(400);
      expect(wrong.body.errors[0]).to.include({ path: 'body/objectStorySpec/photoData/mediaId' });
      const unknown = await create({
        adAccountId: ad.adAccountId,
        name: 'Photo',
        objectStorySpec: { pageId: ad.pageId, photoData: { mediaId: 'media_01jd3y6w7q5v8k0n2b4c6e8g1h' } },
      });
      expect(unknown.status).to.equal(404);
      expect(await marketing.onPlatform(ad.platformAdAccountId)).to.deep.equal({ images: [], videos: [] });
    });

    it('a video still processing is a 202 task; a retry with the key gives the same task, one video; the worker creates the creative once it is ready', async () => {
      const ad = await connectNewAdAccount(t.app, t.owner);
      await marketing.videoProcessing(ad.platformAdAccountId, null);
      const mediaId = await uploadVideo(t.app, t.owner);
      const body = {
        adAccountId: ad.adAccountId,
        name: 'Roasting',
        objectStorySpec: { pageId: ad.pageId, videoData: { mediaId, title: 'Roasting' } },
      };
      const accepted = await create(body, 'video-1');
      expect(accepted.status, accepted.text).to.equal(202);
      expect(accepted.headers.get('location')).to.equal(`/ads/adcreatives/tasks/${accepted.body.taskId}`);
      expect(accepted.body).to.include({ status: 'processing', creative: null, error: null, completedAt: null });
      expect((await create(body, 'video-1')).body.taskId).to.equal(accepted.body.taskId);
      const [video, ...more] = (await marketing.onPlatform(ad.platformAdAccountId)).videos;
      expect(more).to.deep.equal([]);
      expect(video).to.include({ id: accepted.body.videoId, status: 'processing' });
      expect((await task(accepted.body.taskId)).body.status).to.equal('processing');

      await marketing.finishVideo(video!.id);
      const done = await until(() => task(accepted.body.taskId), {
        done: (r) => r.body.status !== 'processing',
        what: 'the task finished',
      });
      expect(done.body.status, done.text).to.equal('succeeded');
      expect(done.body.creative).to.include({ adAccountId: ad.adAccountId, name: 'Roasting' });
      expect(done.body.creative.objectStorySpec).to.deep.equal(body.objectStorySpec);
      expect(done.body.completedAt).to.be.a('string');
    });

    it('a video the platform cannot process fails its task with video_processing_failed', async () => {
      const ad = await connectNewAdAccount(t.app, t.owner);
      await marketing.videoProcessing(ad.platformAdAccountId, null);
      const mediaId = await uploadVideo(t.app, t.owner);
      const accepted = await create({
        adAccountId: ad.adAccountId,
        name: 'Broken',
        objectStorySpec: { pageId: ad.pageId, videoData: { mediaId } },
      });
      expect(accepted.status).to.equal(202);
      await marketing.finishVideo(accepted.body.videoId, 'error');
      const done = await until(() => task(accepted.body.taskId), {
        done: (r) => r.body.status !== 'processing',
        what: 'the task finished',
      });
      expect(done.body).to.include({ status: 'failed', creative: null });
      expect(done.body.error).to.include({ code: 'video_processing_failed' });
    });

    it('a video upload whose answer was lost is found on the platform by the retry, never uploaded twice; a ready video makes the creative at once', async () => {
      const ad = await connectNewAdAccount(t.app, t.owner);
      const mediaId = await uploadVideo(t.app, t.owner);
      const body = {
        adAccountId: ad.adAccountId,
        name: 'Lost',
        objectStorySpec: { pageId: ad.pageId, videoData: { mediaId, thumbnailUrl: 'https://cdn.acme.example/c.jpg' } },
      };
      await marketing.loseAnswer(ad.platformAdAccountId, 'advideos');
      const first = await create(body, 'lost-1');
      expect(first.status).to.equal(502);
      const again = await create(body, 'lost-1');
      expect(again.status, again.text).to.equal(201);
      expect((await marketing.onPlatform(ad.platformAdAccountId)).videos).to.have.length(1);
    });

    it('a creative whose answer was lost is found on the platform by the retry with the key, never created twice', async () => {
      const ad = await connectNewAdAccount(t.app, t.owner);
      const post = await t.sandbox.socialNetwork.postInApp(ad.pageId, 'Lost and found');
      const body = { adAccountId: ad.adAccountId, name: 'Found', objectStoryId: post.id };
      await marketing.loseCreateAnswer(ad.platformAdAccountId, 'adcreatives');
      expect((await create(body, 'lost-creative')).status).to.equal(502);
      const again = await create(body, 'lost-creative');
      expect(again.status, again.text).to.equal(201);
      const kept = (await marketing.adObjects(ad.platformAdAccountId)).filter((object) => object.kind === 'adcreative');
      expect(kept.map((object) => object.id)).to.deep.equal([again.body.id]);
    });

    it('validateOnly checks with the platform and creates nothing; what the platform refuses is a 422 ad_platform_rejected', async () => {
      const ad = await connectNewAdAccount(t.app, t.owner);
      const mediaId = await uploadPhoto(t.app, t.owner);
      const spec = { pageId: ad.pageId, photoData: { mediaId, caption: 'Hi' } };
      const checked = await create({ adAccountId: ad.adAccountId, name: 'Dry', objectStorySpec: spec, validateOnly: true });
      expect(checked.status, checked.text).to.equal(200);
      expect(checked.body).to.deep.equal({ adAccountId: ad.adAccountId, valid: true, checkedBy: 'platform' });
      expect(await marketing.onPlatform(ad.platformAdAccountId)).to.deep.equal({ images: [], videos: [] });
      const refused = await create({ adAccountId: ad.adAccountId, name: 'Dry', objectStoryId: `${ad.pageId}_999`, validateOnly: true });
      expect(refused.status).to.equal(422);
      expect(refused.body.code).to.equal('ad_platform_rejected');
      expect(refused.body.platformCode, 'the Marketing API code of the refusal').to.be.a('number');
    });

    it('on a disabled ad account the platform refuses the creative: 422 ad_account_disabled, nothing made', async () => {
      const ad = await connectNewAdAccount(t.app, t.owner);
      const post = await t.sandbox.socialNetwork.postInApp(ad.pageId, 'Our winter blend is back');
      await marketing.accountStatus(ad.platformAdAccountId, 2);
      const refused = await create({ adAccountId: ad.adAccountId, name: 'Boost winter', objectStoryId: post.id });
      expect(refused.status, refused.text).to.equal(422);
      expect(refused.body.code).to.equal('ad_account_disabled');
      expect(await marketing.adObjects(ad.platformAdAccountId)).to.deep.equal([]);
    });

    it('short_video_ads has no standalone creative: 422 account_platform_unsupported saying so', async () => {
      const row = await saveConnectedAdAccount(t.app.services, ownerItself(t.owner.ownerId), t.owner.profileId, 'short_video_ads', {
        platformAdAccountId: '7000000000001',
        name: 'TikTok Ads',
        currency: 'USD',
        timezone: 'UTC',
        platformStatus: 'active',
        tokenExpiresAt: null,
        scopes: [],
        credentials: { accessToken: 'token' },
      });
      const refused = await create({ adAccountId: row.id, name: 'Clip', objectStoryId: '1_2' });
      expect(refused.status).to.equal(422);
      expect(refused.body.code).to.equal('account_platform_unsupported');
      expect(refused.body.detail).to.include('inline');
    });
  },
);
