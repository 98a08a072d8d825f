import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
import { adSetBody, campaignBody, marketing, type TreeAccount } from './tree-support.js';

describeApi('ads — POST|GET /ads/ads and /ads/object on the social network', (t) => {
  const ads = marketing(t);
  const post = (path: string, body: unknown, key?: string) =>
    t.app.api.post(path, { token: t.owner.key, body, ...(key ? { headers: { 'Idempotency-Key': key } } : {}) });
  const objectPath = (account: TreeAccount, id: string, level: string) =>
    `/ads/object?adAccountId=${account.adAccountId}&objectId=${id}&level=${level}`;

  /** A campaign, an ad set in it and a creative, ready for ads. */
  async function tree(status = 'ACTIVE') {
    const account = await ads.connect();
    const campaignId = (await post('/ads/campaigns', campaignBody(account, { status }))).body.id as string;
    const adsetId = (await post('/ads/adsets', adSetBody(account, campaignId, { status }))).body.id as string;
    return { account, campaignId, adsetId, creativeId: await ads.creative(account) };
  }
  const adBody = (on: Awaited<ReturnType<typeof tree>>, extra: Record<string, unknown> = {}) => ({
    adAccountId: on.account.adAccountId,
    adsetId: on.adsetId,
    creativeId: on.creativeId,
    name: 'Winter blend — link ad',
    ...extra,
  });

  it('createAd: an active ad waits in review (PENDING_REVIEW, "Pending review") with its parents, creative and URL tags', async () => {
    const on = await tree();
    const made = await post('/ads/ads', adBody(on, { status: 'ACTIVE', urlTags: 'utm_source=social' }));
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body).to.include({
      level: 'ad',
      campaignId: on.campaignId,
      adsetId: on.adsetId,
      creativeId: on.creativeId,
      status: 'ACTIVE',
      effectiveStatus: 'PENDING_REVIEW',
      platformStatus: 'PENDING_REVIEW',
      status_name: 'Pending review',
      urlTags: 'utm_source=social',
    });
    expect(made.body.previewUrl).to.match(/^https:\/\//);
    expect((await ads.onPlatform(on.account, 'ad'))[0]).to.include({ review: 'PENDING_REVIEW' });
  });

  it('createAd names what the ad account lacks: an unknown ad set or creative is 404, nothing made', async () => {
    const on = await tree();
    expect((await post('/ads/ads', adBody(on, { adsetId: '1234' }))).status).to.equal(404);
    const noCreative = await post('/ads/ads', adBody(on, { creativeId: '5678' }));
    expect(noCreative.status).to.equal(404);
    expect(noCreative.body.detail).to.include('creative');
    expect(await ads.onPlatform(on.account, 'ad')).to.deep.equal([]);
  });

  it('a lost answer on POST /ads: the retry under the same key finds the ad made, and no second one is; a replay answers it again', async () => {
    const on = await tree();
    await ads.fail(on.account, [{ kind: 'lose_answer', edge: 'ads' }]);
    const lost = await post('/ads/ads', adBody(on), 'ad-lost');
    expect(lost.status).to.be.oneOf([502, 503]);
    const retried = await post('/ads/ads', adBody(on), 'ad-lost');
    expect(retried.status, JSON.stringify(retried.body)).to.equal(201);
    const replayed = await post('/ads/ads', adBody(on), 'ad-lost');
    expect(replayed.body.id).to.equal(retried.body.id);
    expect((await ads.onPlatform(on.account, 'ad')).map((ad) => ad.id)).to.deep.equal([retried.body.id]);
  });

  it('validateOnly on an ad: the platform checks it, nothing is made', async () => {
    const on = await tree();
    const checked = await post('/ads/ads', adBody(on, { validateOnly: true }));
    expect(checked.body).to.deep.equal({ level: 'ad', valid: true, checkedBy: 'platform' });
    expect(await ads.onPlatform(on.account, 'ad')).to.deep.equal([]);
  });

  itPagesThroughPlatform(t, 'listAds', async (count) => {
    const on = await tree();
    const otherSet = (await post('/ads/adsets', adSetBody(on.account, on.campaignId, { name: 'Other' }))).body.id as string;
    const ids: string[] = [];
    const inOther: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const adsetId = i % 2 === 0 ? on.adsetId : otherSet;
      const id = (await post('/ads/ads', adBody(on, { adsetId, name: `Ad ${i}` }))).body.id;
      ids.unshift(id);
      if (adsetId === otherSet) inOther.unshift(id);
    }
    return { path: `/ads/ads?adAccountId=${on.account.adAccountId}`, ids, filter: { query: `adsetId=${otherSet}`, ids: inOther } };
  });

  it('listAds filters by effective status and campaign; a campaign not in the ad account is 404', async () => {
    const on = await tree();
    const active = (await post('/ads/ads', adBody(on, { status: 'ACTIVE' }))).body.id;
    const paused = (await post('/ads/ads', adBody(on, { name: 'Paused' }))).body.id;
    const list = (query: string) => t.app.api.get(`/ads/ads?adAccountId=${on.account.adAccountId}&${query}`, { token: t.owner.key });
    expect((await list('effectiveStatus=PENDING_REVIEW')).body.data.map((ad: { id: string }) => ad.id)).to.deep.equal([active]);
    expect((await list(`campaignId=${on.campaignId}&effectiveStatus=PAUSED`)).body.data.map((ad: { id: string }) => ad.id)).to.deep.equal([
      paused,
    ]);
    expect((await list('campaignId=424242')).status).to.equal(404);
  });

  it('getAdObject reads one object of its level; another level or another ad account is 404', async () => {
    const on = await tree();
    const got = await t.app.api.get(objectPath(on.account, on.adsetId, 'adset'), { token: t.owner.key });
    expect(got.status, JSON.stringify(got.body)).to.equal(200);
    expect(got.body).to.include({ id: on.adsetId, level: 'adset', campaignId: on.campaignId });
    expect((await t.app.api.get(objectPath(on.account, on.adsetId, 'campaign'), { token: t.owner.key })).status).to.equal(404);
    const other = await ads.connect();
    expect((await t.app.api.get(objectPath(other, on.adsetId, 'adset'), { token: t.owner.key })).status).to.equal(404);
  });

  it('updateAdObject pauses, renames and rebudgets; members of another level are a 400; an ad takes a new creative', async () => {
    const on = await tree();
    const patch = (body: Record<string, unknown>) =>
      t.app.api.patch('/ads/object', { token: t.owner.key, body: { adAccountId: on.account.adAccountId, ...body } });
    const paused = await patch({ objectId: on.campaignId, level: 'campaign', status: 'PAUSED', name: 'Winter (paused)' });
    expect(paused.status, JSON.stringify(paused.body)).to.equal(200);
    expect(paused.body).to.include({ status: 'PAUSED', name: 'Winter (paused)' });
    const adset = await t.app.api.get(objectPath(on.account, on.adsetId, 'adset'), { token: t.owner.key });
    expect(adset.body).to.include({ effectiveStatus: 'CAMPAIGN_PAUSED', platformStatus: 'CAMPAIGN_PAUSED' });

    const rebudgeted = await patch({ objectId: on.adsetId, level: 'adset', dailyBudget: 7500, endTime: '2027-01-15T22:59:59Z' });
    expect(rebudgeted.body).to.include({ dailyBudget: 7500, endTime: '2027-01-15T22:59:59Z' });
    const misplaced = await patch({ objectId: on.adsetId, level: 'adset', urlTags: 'utm_source=x' });
    expect(misplaced.status).to.equal(400);
    expect(misplaced.body.errors[0].path).to.equal('body/urlTags');
    const tooLow = await patch({ objectId: on.adsetId, level: 'adset', dailyBudget: 99 });
    expect(tooLow.status).to.equal(400);
    const switched = await patch({ objectId: on.adsetId, level: 'adset', lifetimeBudget: 100000 });
    expect(switched.status).to.equal(422);
    expect(switched.body.errors[0].path).to.equal('body/lifetimeBudget');

    const ad = (await post('/ads/ads', adBody(on, { status: 'ACTIVE' }))).body.id;
    const creativeId = await ads.creative(on.account);
    const recreated = await patch({ objectId: ad, level: 'ad', creativeId, urlTags: null });
    expect(recreated.status, JSON.stringify(recreated.body)).to.equal(200);
    expect(recreated.body).to.include({ creativeId, effectiveStatus: 'PENDING_REVIEW', urlTags: null });
  });

  it("deleteAdObject deletes the campaign with what is in it, stays readable as DELETED, answers 204 again; a deleted object's change is the platform's refusal with its code", async () => {
    const on = await tree();
    const ad = (await post('/ads/ads', adBody(on))).body.id;
    const remove = () => t.app.api.delete(objectPath(on.account, on.campaignId, 'campaign'), { token: t.owner.key });
    expect((await remove()).status).to.equal(204);
    expect((await remove()).status).to.equal(204);
    const read = await t.app.api.get(objectPath(on.account, ad, 'ad'), { token: t.owner.key });
    expect(read.body).to.include({ status: 'DELETED', effectiveStatus: 'DELETED' });

    const changed = await t.app.api.patch('/ads/object', {
      token: t.owner.key,
      body: { adAccountId: on.account.adAccountId, objectId: on.adsetId, level: 'adset', name: 'Too late' },
    });
    expect(changed.status).to.equal(422);
    expect(changed.body).to.include({ code: 'ad_platform_rejected', platformCode: 100, platformSubcode: 1815001 });
    expect((await t.app.api.delete(objectPath(on.account, '31337', 'ad'), { token: t.owner.key })).status).to.equal(404);
  });
});
