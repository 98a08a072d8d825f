import { expect } from 'chai';
import { idOf } from '../../../src/lib/ids.js';
import { withConnectedAccount } from '../../../src/modules/accounts/platform-call.js';
import type { AdCampaigns, AdsAccount } from '../../../src/platforms/capabilities/ad-campaigns.js';
import { addDays, adDay } from '../../../src/sandbox/ad-figures.js';
import { daysBetween } from '../../../src/sandbox/insights-series.js';
import { describeApi } from '../../support/harness.js';
import { until } from '../../support/wait.js';
import { type ConnectedAdAccount, connectTikTokAdAccount } from './insights-support.js';

describeApi('getAdInsights — GET /ads/insights on short_video_ads', (t) => {
  let ad: ConnectedAdAccount;
  const insights = (query: Record<string, string>) =>
    t.app.api.get(`/ads/insights?${new URLSearchParams({ adAccountId: ad.adAccountId, ...query })}`, { token: t.owner.key });
  const week = { since: '2026-11-01', until: '2026-11-07' };

  it('reads the advertiser by day: its decimal amounts in minor units of a currency without any (JPY), actions named unsupported', async () => {
    ad = await connectTikTokAdAccount(t.app, t.owner, 'JPY');
    const answer = await insights({ ...week, timeIncrement: 'day', fields: 'impressions,clicks,spend,cpc,actions,conversions' });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.include({ currency: 'JPY', nextCursor: null });
    expect(answer.body.unsupported).to.deep.equal([
      { field: 'actions', reason: 'the platform reports no actions by type; ask for conversions.' },
    ]);
    const days = daysBetween(week.since, week.until);
    expect(answer.body.data.map((row: { dateStart: string }) => row.dateStart)).to.deep.equal(days);
    const figures = adDay(ad.platformAdAccountId, days[0]!);
    const first = answer.body.data[0];
    expect(first).to.deep.include({
      objectId: ad.platformAdAccountId,
      level: 'account',
      impressions: figures.impressions,
      clicks: figures.clicks,
      spend: figures.spend,
      conversions: [{ actionType: 'conversion', value: figures.purchases }],
    });
    expect(first.cpc).to.be.closeTo(figures.spend / figures.clicks, 0.01);
    expect(first).to.not.have.property('actions');
  });

  it('answers 422 ad_insights_unsupported for what the platform does not report by: weeks, attribution windows, age with country', async () => {
    ad = await connectTikTokAdAccount(t.app, t.owner);
    for (const [query, member] of [
      [{ timeIncrement: 'week' }, 'timeIncrement'],
      [{ attributionWindows: '7d_click' }, 'attributionWindows'],
      [{ breakdowns: 'age,country' }, 'breakdowns'],
      [{ breakdowns: 'platform_position' }, 'breakdowns'],
    ] as const) {
      const refused = await insights({ ...week, ...query });
      expect(refused.status, JSON.stringify(query)).to.equal(422);
      expect(refused.body.code).to.equal('ad_insights_unsupported');
      expect(refused.body.errors[0].path).to.equal(`query/${member}`);
    }
  });

  it('splits by age and gender in the audience report, where reach is named unsupported', async () => {
    ad = await connectTikTokAdAccount(t.app, t.owner);
    const answer = await insights({ ...week, breakdowns: 'age,gender', fields: 'impressions,reach', limit: '100' });
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body.unsupported.map((u: { field: string }) => u.field)).to.deep.equal(['reach']);
    expect(answer.body.data).to.have.length(18);
    expect(answer.body.data[0].breakdowns).to.deep.equal({ age: '13-17', gender: 'male' });
    expect(answer.body.data[0]).to.not.have.property('reach');
  });

  it('makes a daily read of more than 30 days a report task: 202, then its rows once the platform has them, paged', async () => {
    ad = await connectTikTokAdAccount(t.app, t.owner, 'EUR');
    const started = await insights({ since: '2026-09-01', until: '2026-10-30', timeIncrement: 'day', fields: 'spend' });
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    const done = await until(() => t.app.api.get(started.body.location, { token: t.owner.key }), {
      done: (answer) => answer.status === 200,
      what: 'the report task done',
    });
    expect(done.body.data).to.have.length(20);
    expect(done.body.data[0]).to.deep.include({ dateStart: '2026-09-01', spend: adDay(ad.platformAdAccountId, '2026-09-01').spend });
    const next = await t.app.api.get(`${started.body.location}&cursor=${done.body.nextCursor}`, { token: t.owner.key });
    expect(next.body.data[0].dateStart).to.equal('2026-09-21');
  });

  it('searchAdInterests and searchAdBehaviors search the interest and action categories, with their place in the tree', async () => {
    ad = await connectTikTokAdAccount(t.app, t.owner);
    const get = (path: string, q: string) =>
      t.app.api.get(`${path}?${new URLSearchParams({ adAccountId: ad.adAccountId, q })}`, { token: t.owner.key });
    const interests = await get('/ads/targeting/interests', 'coffee');
    expect(interests.status, JSON.stringify(interests.body)).to.equal(200);
    expect(interests.body.data).to.deep.equal([
      {
        id: '101',
        name: 'Coffee',
        type: 'interest',
        path: ['Food & Beverage', 'Coffee'],
        audienceSizeLowerBound: null,
        audienceSizeUpperBound: null,
      },
    ]);
    const behaviors = await get('/ads/targeting/behaviors', 'food');
    expect(behaviors.body.data.map((b: { id: string }) => b.id)).to.deep.equal(['4101', '5101']);
  });

  it('searchAdLocations finds the places tool/region lists, by the start of their name, with their country', async () => {
    ad = await connectTikTokAdAccount(t.app, t.owner);
    const found = await t.app.api.get(`/ads/locations?adAccountId=${ad.adAccountId}&q=bav`, { token: t.owner.key });
    expect(found.status, JSON.stringify(found.body)).to.equal(200);
    expect(found.body.data).to.deep.equal([
      { key: '2951839', name: 'Bavaria', type: 'region', countryCode: 'DE', countryName: 'Germany', region: null, regionKey: null },
    ]);
    const countries = await t.app.api.get(`/ads/locations?adAccountId=${ad.adAccountId}&q=a&types=country`, { token: t.owner.key });
    expect(countries.body.data.map((place: { key: string }) => place.key)).to.deep.equal(['2782113', '2077456']);
  });

  it('estimateAdReach sizes a spec by the advertiser’s location ids, and answers 422 ad_platform_rejected for a country it cannot target', async () => {
    ad = await connectTikTokAdAccount(t.app, t.owner);
    const estimate = (targeting: Record<string, unknown>) =>
      t.app.api.post('/ads/reach-estimate', { token: t.owner.key, body: { adAccountId: ad.adAccountId, targeting } });
    const germany = await estimate({ geoLocations: { countries: ['DE'] } });
    expect(germany.status, JSON.stringify(germany.body)).to.equal(200);
    expect(germany.body).to.include({ audienceSizeLowerBound: 20_000_000, audienceSizeUpperBound: 30_000_000, ready: true });
    const narrower = await estimate({ geoLocations: { countries: ['DE'] }, genders: ['female'], interests: [{ id: '101' }] });
    expect(narrower.body.audienceSizeUpperBound).to.be.below(germany.body.audienceSizeLowerBound);
    const refused = await estimate({ geoLocations: { countries: ['BR'] } });
    expect(refused.status).to.equal(422);
    expect(refused.body).to.include({ code: 'ad_platform_rejected' });
    expect(refused.body.detail).to.include('BR');
  });

  /** A campaign with one ad group and two ads on the platform, made through the campaign tree's capability. */
  async function campaignTree() {
    const run = <T>(call: (campaigns: AdCampaigns, account: AdsAccount) => Promise<T>) =>
      withConnectedAccount(
        t.app.services,
        { kind: 'session', ownerId: t.owner.ownerId, sessionId: 'sess_test' },
        { adAccountId: idOf('adacc', ad.adAccountId) },
        'adCampaigns',
        (adapter, account, row) => call(adapter.adCampaigns, { ...account, currency: row.currency }),
      );
    return run(async (campaigns, account) => {
      const campaign = await campaigns.create(account, 'campaign', {
        name: 'Winter blend',
        objective: 'OUTCOME_TRAFFIC',
        status: 'ACTIVE',
        specialAdCategories: [],
        specialAdCategoryCountries: [],
        isAdsetBudgetSharingEnabled: false,
      });
      const group = await campaigns.create(account, 'adset', {
        campaignId: campaign.id,
        name: 'US women',
        status: 'ACTIVE',
        dailyBudget: 2550,
        billingEvent: 'LINK_CLICKS',
        optimizationGoal: 'LINK_CLICKS',
        targeting: { geoLocations: { countries: ['US'] }, ageMin: 18, ageMax: 65 },
      });
      const ads = [];
      for (const name of ['Ad A', 'Ad B'])
        ads.push(await campaigns.create(account, 'ad', { adsetId: group.id, creativeId: 'v1', name, status: 'ACTIVE' }));
      return { campaignId: campaign.id, adIds: ads.map((made) => made.id) };
    });
  }

  it('reads a campaign at its own level and at the level of its ads: each ad its own figures, the campaign their sum', async () => {
    ad = await connectTikTokAdAccount(t.app, t.owner);
    const { campaignId, adIds } = await campaignTree();
    const day = { since: '2026-11-02', until: '2026-11-02', fields: 'impressions,spend', objectId: campaignId, objectLevel: 'campaign' };
    const byAd = await insights({ ...day, level: 'ad' });
    expect(byAd.status, JSON.stringify(byAd.body)).to.equal(200);
    expect(byAd.body.data.map((row: { objectId: string; name: string }) => [row.objectId, row.name])).to.deep.equal(
      [...adIds].sort().map((id) => [id, id === adIds[0] ? 'Ad A' : 'Ad B']),
    );
    for (const row of byAd.body.data) expect(row.impressions).to.equal(adDay(row.objectId, '2026-11-02').impressions);
    const whole = await insights(day);
    const sum = addDays(adIds.map((id) => adDay(id, '2026-11-02')));
    expect(whole.body.data).to.have.length(1);
    expect(whole.body.data[0]).to.deep.include({
      objectId: campaignId,
      level: 'campaign',
      name: 'Winter blend',
      impressions: sum.impressions,
      spend: sum.spend,
    });
  });
});
