import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectAdvertiser } from '../../support/sandbox/short-video-ads.js';
import { connectCreator } from '../../support/sandbox/short-video.js';
import { postNow } from '../publishing/posts-support.js';
import { uploadMedia, VIDEO } from '../publishing/support.js';
import { testBoostSettings } from './boost-support.js';
import { sparkBody } from './spark-support.js';

describeApi('boostPost on short_video_ads — Spark ads of authorised TikTok posts', { settings: testBoostSettings() }, (t) => {
  const { shortVideoAds, shortVideo } = t.sandbox;
  const boost = (body: Record<string, unknown>) => t.app.api.post('/ads/boost', { token: t.owner.key, body });
  const read = (boostId: string) => t.app.api.get(`/ads/boosts/${boostId}`, { token: t.owner.key });
  const advertiser = async () => {
    const { adAccountId, advertiser: tiktok } = await connectAdvertiser(t.app, t.owner, shortVideoAds);
    return { adAccountId, advertiserId: tiktok.advertiser_id };
  };

  it('with the creator’s code: authorises the post, then makes the campaign, ad group and a Spark ad of it shown as its creator (201)', async () => {
    const { adAccountId, advertiserId } = await advertiser();
    const { authCode, itemId, identityId } = await shortVideoAds.sparkCode();
    const made = await boost(sparkBody(adAccountId, itemId, { sparkAuthCode: authCode, objective: 'OUTCOME_TRAFFIC', name: 'Spark' }));
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.include({
      platform: 'short_video_ads',
      platformPostId: itemId,
      status: 'active',
      creativeId: itemId,
      currency: 'USD',
    });
    expect(made.body.steps.map((step: any) => [step.step, step.state])).to.deep.equal([
      ['campaign', 'done'],
      ['adset', 'done'],
      ['creative', 'done'],
      ['ad', 'done'],
    ]);
    const tree = await shortVideoAds.onPlatform(advertiserId);
    expect(tree.campaigns.map((c) => [c.campaign_id, c.objective_type])).to.deep.equal([[made.body.campaignId, 'TRAFFIC']]);
    expect(tree.adgroups.map((g) => [g.adgroup_id, g.budget, g.optimization_goal])).to.deep.equal([[made.body.adsetId, 50, 'CLICK']]);
    expect(tree.ads).to.have.length(1);
    expect(tree.ads[0]).to.include({
      ad_id: made.body.adId,
      tiktok_item_id: itemId,
      identity_type: 'AUTH_CODE',
      identity_id: identityId,
      video_id: null,
    });
    expect((await read(made.body.id)).body).to.deep.equal(made.body);
    // Authorised once, the post is boosted again without its code.
    const again = await boost(sparkBody(adAccountId, itemId));
    expect(again.status, again.text).to.equal(201);
  });

  it('boosts our own post by postId once it is published on short_video, with the code its creator made for it', async () => {
    const { adAccountId, advertiserId } = await advertiser();
    await shortVideo.configure({ processingMs: 0, unaudited: false, rateLimited: false });
    const creator = await connectCreator(t.app, t.owner);
    const video = await uploadMedia(t.app, t.owner, VIDEO, 'clip.mp4');
    const published = await postNow(t.app, t.owner, {
      text: 'Winter blend',
      mediaIds: [video],
      accountIds: [creator.accountId],
      platformOptions: { short_video: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
    });
    expect(published.status).to.equal('published');
    const itemId = published.targets[0].platformPostId as string;
    const { authCode } = await shortVideoAds.sparkCode(itemId);
    const made = await boost({
      ...sparkBody(adAccountId, itemId, { sparkAuthCode: authCode }),
      platformPostId: undefined,
      postId: published.id,
    });
    expect(made.status, made.text).to.equal(201);
    expect(made.body).to.include({ postId: published.id, platformPostId: itemId });
    expect((await shortVideoAds.onPlatform(advertiserId)).ads[0]).to.include({ tiktok_item_id: itemId });
  });

  it('a post of a TikTok account linked to the advertiser is boosted as that account, with no code', async () => {
    const { adAccountId, advertiserId } = await advertiser();
    const linked = await shortVideoAds.linkAccount(advertiserId, { '7311000000000009001': true });
    const made = await boost(sparkBody(adAccountId, '7311000000000009001', { objective: 'OUTCOME_AWARENESS' }));
    expect(made.status, made.text).to.equal(201);
    expect((await shortVideoAds.onPlatform(advertiserId)).ads[0]).to.include({
      tiktok_item_id: '7311000000000009001',
      identity_type: 'TT_USER',
      identity_id: linked.identityId,
    });
  });

  it('a post not authorised for the advertiser’s ads is 422 spark_authorization_missing saying what is missing; nothing is recorded or made', async () => {
    const { adAccountId, advertiserId } = await advertiser();
    const missing = async (body: Record<string, unknown>, says: string) => {
      const refused = await boost(body);
      expect(refused.status, refused.text).to.equal(422);
      expect(refused.body.code).to.equal('spark_authorization_missing');
      expect(refused.body.detail).to.include(says);
    };
    await missing(sparkBody(adAccountId, '7311000000000009002'), 'give sparkAuthCode');
    await shortVideoAds.linkAccount(advertiserId, { '7311000000000009003': false });
    await missing(sparkBody(adAccountId, '7311000000000009003'), '"Ad authorization" on');
    const other = await shortVideoAds.sparkCode();
    await missing(
      sparkBody(adAccountId, '7311000000000009004', { sparkAuthCode: other.authCode }),
      `authorises the TikTok post ${other.itemId}`,
    );
    await shortVideoAds.withdrawSparkCode(other.authCode);
    await missing(sparkBody(adAccountId, other.itemId, { sparkAuthCode: other.authCode }), 'withdrawn');
    const leads = await boost(sparkBody(adAccountId, other.itemId, { objective: 'OUTCOME_LEADS' }));
    expect(leads.status, leads.text).to.equal(422);
    expect(leads.body.errors[0]).to.include({ path: 'body/objective', code: 'ad_platform_rejected' });
    const tree = await shortVideoAds.onPlatform(advertiserId);
    expect([...tree.campaigns, ...tree.adgroups, ...tree.ads]).to.deep.equal([]);
    expect((await t.app.api.get(`/ads/boosts?adAccountId=${adAccountId}`, { token: t.owner.key })).body.data).to.deep.equal([]);
  });

  it('the ad group refused (a budget below TikTok’s minimum): the campaign is deleted again and the refusal answered (422)', async () => {
    const { adAccountId, advertiserId } = await advertiser();
    const { authCode, itemId } = await shortVideoAds.sparkCode();
    const refused = await boost(sparkBody(adAccountId, itemId, { sparkAuthCode: authCode, dailyBudget: 1000 }));
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body.code).to.equal('ad_platform_rejected');
    const [failed] = (await t.app.api.get(`/ads/boosts?adAccountId=${adAccountId}`, { token: t.owner.key })).body.data;
    expect(failed).to.include({ status: 'failed', campaignId: null });
    expect(failed.error).to.include({ step: 'adset' });
    expect(failed.steps.map((step: any) => step.state)).to.deep.equal(['deleted', 'refused', 'pending', 'pending']);
    const tree = await shortVideoAds.onPlatform(advertiserId);
    expect(tree.campaigns.map((c) => c.operation_status)).to.deep.equal(['DELETE']);
    expect(tree.adgroups).to.deep.equal([]);
  });

  it('the ad refused by TikTok: the ad group and campaign are deleted again, nothing is left, the refusal is answered with its code (422)', async () => {
    const { adAccountId, advertiserId } = await advertiser();
    const { authCode, itemId } = await shortVideoAds.sparkCode();
    await shortVideoAds.failNext(40002, 'creatives.tiktok_item_id: The creator has withdrawn the authorization code.', 'ad/create/');
    const refused = await boost(sparkBody(adAccountId, itemId, { sparkAuthCode: authCode }));
    expect(refused.status, refused.text).to.equal(422);
    expect(refused.body).to.include({ code: 'ad_platform_rejected', platformCode: 40002 });
    expect(refused.body.detail).to.include('withdrawn');
    const [failed] = (await t.app.api.get(`/ads/boosts?adAccountId=${adAccountId}`, { token: t.owner.key })).body.data;
    expect(failed.steps.map((step: any) => step.state)).to.deep.equal(['deleted', 'deleted', 'deleted', 'refused']);
    const tree = await shortVideoAds.onPlatform(advertiserId);
    expect([...tree.campaigns, ...tree.adgroups].map((object) => object.operation_status)).to.deep.equal(['DELETE', 'DELETE']);
    expect(tree.ads).to.deep.equal([]);
  });

  it('a lost answer of the ad is looked up on TikTok: the boost completes with one ad', async () => {
    const { adAccountId, advertiserId } = await advertiser();
    const { authCode, itemId } = await shortVideoAds.sparkCode();
    await shortVideoAds.loseNext('ad/create/');
    const made = await boost(sparkBody(adAccountId, itemId, { sparkAuthCode: authCode }));
    expect(made.status, made.text).to.equal(201);
    const tree = await shortVideoAds.onPlatform(advertiserId);
    expect(tree.ads.map((ad) => ad.ad_id)).to.deep.equal([made.body.adId]);
  });

  it('pauses, resumes and stops a Spark boost; stopping deletes its campaign (TikTok has no archive)', async () => {
    const { adAccountId, advertiserId } = await advertiser();
    const { authCode, itemId } = await shortVideoAds.sparkCode();
    const made = await boost(sparkBody(adAccountId, itemId, { sparkAuthCode: authCode }));
    const status = (wanted: string) =>
      t.app.api.post(`/ads/boosts/${made.body.id}/status`, { token: t.owner.key, body: { status: wanted } });
    const campaign = async () => (await shortVideoAds.onPlatform(advertiserId)).campaigns[0]!.operation_status;
    expect((await status('PAUSED')).body.status).to.equal('paused');
    expect(await campaign()).to.equal('DISABLE');
    expect((await status('ACTIVE')).body.status).to.equal('active');
    expect(await campaign()).to.equal('ENABLE');
    expect((await status('STOPPED')).body.status).to.equal('stopped');
    expect(await campaign()).to.equal('DELETE');
  });
});
