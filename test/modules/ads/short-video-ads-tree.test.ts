import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { connectAdvertiser } from '../../support/sandbox/short-video-ads.js';

describeApi('the campaign tree on short_video_ads — the TikTok Business API behind the same operations', (t) => {
  const { shortVideoAds } = t.sandbox;
  const post = (path: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.app.api.post(path, { token: t.owner.key, body, headers });

  async function advertiser(currency = 'USD') {
    return connectAdvertiser(t.app, t.owner, shortVideoAds, { currency });
  }

  const campaign = (adAccountId: string, extra: Record<string, unknown> = {}) =>
    post('/ads/campaigns', { adAccountId, name: 'Winter blend', objective: 'OUTCOME_TRAFFIC', ...extra });
  const adset = (adAccountId: string, campaignId: string, extra: Record<string, unknown> = {}) =>
    post('/ads/adsets', {
      adAccountId,
      campaignId,
      name: 'US women 25-44',
      optimizationGoal: 'LINK_CLICKS',
      billingEvent: 'LINK_CLICKS',
      dailyBudget: 2550,
      targeting: { geoLocations: { countries: ['US'] }, ageMin: 25, ageMax: 44, genders: ['female'] },
      ...extra,
    });

  it('a campaign, an ad group and an ad: minor units go to TikTok as decimals and come back the same; the raw secondary_status is kept beside the normalised status', async () => {
    const { adAccountId, advertiser: tiktok } = await advertiser();
    const made = await campaign(adAccountId, { status: 'ACTIVE' });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body).to.include({
      level: 'campaign',
      platform: 'short_video_ads',
      objective: 'OUTCOME_TRAFFIC',
      status: 'ACTIVE',
      dailyBudget: null,
    });
    const group = await adset(adAccountId, made.body.id, { status: 'ACTIVE' });
    expect(group.status, JSON.stringify(group.body)).to.equal(201);
    expect(group.body).to.include({
      dailyBudget: 2550,
      currency: 'USD',
      optimizationGoal: 'LINK_CLICKS',
      billingEvent: 'LINK_CLICKS',
      effectiveStatus: 'ACTIVE',
    });
    expect(group.body.targeting).to.deep.include({ geoLocations: { countries: ['US'] }, ageMin: 25, ageMax: 44, genders: ['female'] });
    const ad = await post('/ads/ads', {
      adAccountId,
      adsetId: group.body.id,
      creativeId: 'v10033g50000ct1',
      name: 'Pour-over',
      status: 'ACTIVE',
      urlTags: 'utm_source=tiktok',
    });
    expect(ad.status, JSON.stringify(ad.body)).to.equal(201);
    expect(ad.body).to.include({
      status: 'ACTIVE',
      effectiveStatus: 'PENDING_REVIEW',
      creativeId: 'v10033g50000ct1',
      urlTags: 'utm_source=tiktok',
    });

    const platform = await shortVideoAds.onPlatform(tiktok.advertiser_id);
    expect(platform.adgroups.map((g) => [g.budget, g.budget_mode, g.location_ids, g.age_groups, g.gender])).to.deep.equal([
      [25.5, 'BUDGET_MODE_DAY', ['6252001'], ['AGE_25_34', 'AGE_35_44'], 'GENDER_FEMALE'],
    ]);
    expect(platform.ads.map((a) => [a.secondary_status, a.ad_text, a.utm_params])).to.deep.equal([
      ['AD_STATUS_AUDIT', 'Pour-over', [{ key: 'utm_source', value: 'tiktok' }]],
    ]);

    await shortVideoAds.reviewAd(ad.body.id, 'approve');
    const ads = await t.app.api.get(`/ads/ads?${new URLSearchParams({ adAccountId, adsetId: group.body.id })}`, { token: t.owner.key });
    expect(
      ads.body.data.map((a: { effectiveStatus: string; platformStatus: string }) => [a.effectiveStatus, a.platformStatus]),
    ).to.deep.equal([['ACTIVE', 'AD_STATUS_DELIVERY_OK']]);
  });

  it('JPY has no minor units: a 6000 yen lifetime budget is 6000 on TikTok, and 6000 again when read', async () => {
    const { adAccountId, advertiser: tiktok } = await advertiser('JPY');
    const made = await campaign(adAccountId, { lifetimeBudget: 6000 });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body).to.include({ lifetimeBudget: 6000, dailyBudget: null, currency: 'JPY' });
    expect(
      (await shortVideoAds.onPlatform(tiktok.advertiser_id)).campaigns.map((c) => [c.budget, c.budget_mode, c.budget_optimize_on]),
    ).to.deep.equal([[6000, 'BUDGET_MODE_TOTAL', true]]);
  });

  it("TikTok's rules are refused as a 422 naming our member before anything is sent: minimum budgets, one budget level, the objective's goals", async () => {
    const { adAccountId, advertiser: tiktok } = await advertiser();
    const low = await campaign(adAccountId, { dailyBudget: 4999 });
    expect(low.status).to.equal(422);
    expect(low.body).to.include({ code: 'ad_platform_rejected' });
    expect(low.body.detail).to.include('at least 50 USD');
    expect(low.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body/dailyBudget']);
    const dry = await campaign(adAccountId, { dailyBudget: 5000, validateOnly: true });
    expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
    expect(dry.body).to.include({ valid: true, checkedBy: 'service' });
    const shared = await campaign(adAccountId, { dailyBudget: 5000 });
    const twice = await adset(adAccountId, shared.body.id);
    expect(twice.status).to.equal(422);
    expect(twice.body.detail).to.include('takes no budget of its own');
    const plain = await campaign(adAccountId, { name: 'Per ad group' });
    const cheap = await adset(adAccountId, plain.body.id, { dailyBudget: 1999 });
    expect(cheap.status).to.equal(422);
    expect(cheap.body.detail).to.include('at least 20 USD');
    const goal = await adset(adAccountId, plain.body.id, { optimizationGoal: 'APP_INSTALLS' });
    expect(goal.status).to.equal(422);
    expect(goal.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['body/optimizationGoal']);
    const nowhere = await adset(adAccountId, '1799999999999999999');
    expect(nowhere.status).to.equal(404);
    expect((await shortVideoAds.onPlatform(tiktok.advertiser_id)).adgroups).to.deep.equal([]);
  });

  it('a lost answer (502) is found on the platform by the retry with the same key, never created twice', async () => {
    const { adAccountId, advertiser: tiktok } = await advertiser();
    await shortVideoAds.loseNext();
    const key = { 'Idempotency-Key': 'tiktok-lost-campaign' };
    const lost = await post('/ads/campaigns', { adAccountId, name: 'Lost once', objective: 'OUTCOME_TRAFFIC' }, key);
    expect(lost.status, JSON.stringify(lost.body)).to.equal(502);
    const again = await post('/ads/campaigns', { adAccountId, name: 'Lost once', objective: 'OUTCOME_TRAFFIC' }, key);
    expect(again.status, JSON.stringify(again.body)).to.equal(201);
    const named = (await shortVideoAds.onPlatform(tiktok.advertiser_id)).campaigns.filter((c) => c.campaign_name === 'Lost once');
    expect(named.map((c) => c.campaign_id)).to.deep.equal([again.body.id]);
  });

  it('pausing, renaming and deleting through PATCH and DELETE /ads/object; a deleted campaign takes its ad groups with it and stays readable', async () => {
    const { adAccountId } = await advertiser();
    const made = await campaign(adAccountId, { status: 'ACTIVE' });
    const group = await adset(adAccountId, made.body.id, { status: 'ACTIVE' });
    const changed = await t.app.api.patch('/ads/object', {
      token: t.owner.key,
      body: { adAccountId, objectId: group.body.id, level: 'adset', status: 'PAUSED', name: 'Renamed', dailyBudget: 3000 },
    });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
    expect(changed.body).to.include({
      status: 'PAUSED',
      effectiveStatus: 'PAUSED',
      name: 'Renamed',
      dailyBudget: 3000,
      platformStatus: 'ADGROUP_STATUS_DISABLE',
    });
    const object = new URLSearchParams({ adAccountId, objectId: made.body.id, level: 'campaign' });
    const gone = await t.app.api.delete(`/ads/object?${object}`, { token: t.owner.key });
    expect(gone.status).to.equal(204);
    const again = await t.app.api.delete(`/ads/object?${object}`, { token: t.owner.key });
    expect(again.status).to.equal(204);
    const listed = await t.app.api.get(`/ads/adsets?${new URLSearchParams({ adAccountId, effectiveStatus: 'DELETED' })}`, {
      token: t.owner.key,
    });
    expect(listed.body.data.map((s: { id: string; platformStatus: string }) => [s.id, s.platformStatus])).to.deep.equal([
      [group.body.id, 'ADGROUP_STATUS_CAMPAIGN_DELETE'],
    ]);
  });

  it('the platform throttling (40100) is a 429 with a time to come back; nothing is created', async () => {
    const { adAccountId, advertiser: tiktok } = await advertiser();
    await shortVideoAds.failNext(40100, 'Too many requests. Please retry in some time.');
    const throttled = await campaign(adAccountId);
    expect(throttled.status).to.equal(429);
    expect(throttled.headers.get('retry-after')).to.match(/^\d+$/);
    expect((await shortVideoAds.onPlatform(tiktok.advertiser_id)).campaigns).to.deep.equal([]);
  });
});
