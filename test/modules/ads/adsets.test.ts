import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
import { adSetBody, campaignBody, marketing, type TreeAccount } from './tree-support.js';

describeApi('ad sets — POST|GET /ads/adsets on the social network: the Marketing API v23+ rules', (t) => {
  const ads = marketing(t);
  const post = (path: string, body: unknown) => t.app.api.post(path, { token: t.owner.key, body });
  const campaign = async (account: TreeAccount, extra: Record<string, unknown> = {}): Promise<string> => {
    const made = await post('/ads/campaigns', campaignBody(account, extra));
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    return made.body.id;
  };
  /** Our refusal names the member, with no platform code (the rule was checked before asking). */
  const refusedAt = (answer: { status: number; body: any }, path: string) => {
    expect(answer.status, JSON.stringify(answer.body)).to.equal(422);
    expect(answer.body.code).to.equal('ad_platform_rejected');
    expect(answer.body.errors.map((e: { path: string }) => e.path)).to.deep.equal([path]);
  };
  /** The same ad set sent straight to the platform, in its words. */
  const direct = (account: TreeAccount, form: Record<string, unknown>) =>
    ads.graph(account, 'POST', `${account.platformId}/adsets`, {
      name: 'Direct',
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      targeting: { geo_locations: { countries: ['US'] } },
      ...form,
    });

  it('createAdSet creates it under its campaign and answers targeting, budget and raw status as the platform keeps them', async () => {
    const account = await ads.connect();
    const campaignId = await campaign(account);
    const made = await post('/ads/adsets', adSetBody(account, campaignId, { status: 'ACTIVE' }));
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body).to.deep.include({
      level: 'adset',
      campaignId,
      status: 'ACTIVE',
      effectiveStatus: 'CAMPAIGN_PAUSED',
      platformStatus: 'CAMPAIGN_PAUSED',
      dailyBudget: 2000,
      currency: 'EUR',
      billingEvent: 'IMPRESSIONS',
      optimizationGoal: 'LINK_CLICKS',
      dsaBeneficiary: null,
    });
    expect(made.body.targeting).to.deep.equal({ geoLocations: { countries: ['US'] }, ageMin: 18, ageMax: 65 });
    const unknown = await post('/ads/adsets', adSetBody(account, '999999999'));
    expect(unknown.status).to.equal(404);
  });

  it('one budget level: an ad set under a campaign budget takes none of its own (platform subcode 1885621); none at either level is refused too', async () => {
    const account = await ads.connect();
    const budgeted = await campaign(account, { dailyBudget: 5000 });
    refusedAt(await post('/ads/adsets', adSetBody(account, budgeted)), 'body/dailyBudget');
    expect((await direct(account, { campaign_id: budgeted, daily_budget: 2000 })).body.error).to.include({ error_subcode: 1885621 });
    const { dailyBudget: _, ...unbudgeted } = adSetBody(account, budgeted);
    expect((await post('/ads/adsets', unbudgeted)).status).to.equal(201);

    const bare = await campaign(account);
    refusedAt(await post('/ads/adsets', { ...unbudgeted, campaignId: bare }), 'body/dailyBudget');
  });

  it('Advantage+ audience: narrowed targeting is sent with advantage_audience 0 unless said, the platform refuses it unsaid (1870227), and with it on the age range stays open', async () => {
    const account = await ads.connect();
    const campaignId = await campaign(account);
    const narrowed = { geoLocations: { countries: ['US'] }, ageMin: 25, ageMax: 54, genders: ['female'] };
    const made = await post('/ads/adsets', adSetBody(account, campaignId, { targeting: narrowed }));
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.targeting).to.deep.include({ advantageAudience: false, ageMin: 25, genders: ['female'] });
    const [kept] = await ads.onPlatform(account, 'adset');
    expect(kept.fields.targeting.targeting_automation).to.deep.equal({ advantage_audience: 0 });

    const unsaid = await direct(account, {
      campaign_id: campaignId,
      daily_budget: 2000,
      targeting: { geo_locations: { countries: ['US'] }, age_min: 25 },
    });
    expect(unsaid.body.error).to.include({ code: 100, error_subcode: 1870227 });

    refusedAt(
      await post('/ads/adsets', adSetBody(account, campaignId, { targeting: { ...narrowed, advantageAudience: true } })),
      'body/targeting/ageMax',
    );
    const open = await post(
      '/ads/adsets',
      adSetBody(account, campaignId, { targeting: { geoLocations: { countries: ['US'] }, advantageAudience: true } }),
    );
    expect(open.body.targeting.advantageAudience).to.equal(true);
  });

  it("DSA: an ad set reaching the EU takes the ad account's default beneficiary and payer; without defaults it is refused naming dsaBeneficiary (platform 3858082)", async () => {
    const declared = await ads.connect({ defaultDsaBeneficiary: 'Acme Coffee GmbH', defaultDsaPayor: 'Acme Holding AG' });
    const eu = { targeting: { geoLocations: { countries: ['DE', 'AT'] } } };
    const made = await post('/ads/adsets', adSetBody(declared, await campaign(declared), eu));
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body).to.include({ dsaBeneficiary: 'Acme Coffee GmbH', dsaPayor: 'Acme Holding AG' });

    const undeclared = await ads.connect();
    const campaignId = await campaign(undeclared);
    refusedAt(await post('/ads/adsets', adSetBody(undeclared, campaignId, eu)), 'body/dsaBeneficiary');
    const platform = await direct(undeclared, {
      campaign_id: campaignId,
      daily_budget: 2000,
      targeting: { geo_locations: { countries: ['DE'] } },
    });
    expect(platform.body.error).to.include({ error_subcode: 3858082 });
    const given = await post('/ads/adsets', adSetBody(undeclared, campaignId, { ...eu, dsaBeneficiary: 'Pat', dsaPayor: 'Pat' }));
    expect(given.body).to.include({ dsaBeneficiary: 'Pat', dsaPayor: 'Pat' });
  });

  it('special ad categories: their ad sets narrow by neither gender nor age (platform 1885322)', async () => {
    const account = await ads.connect();
    const housing = await campaign(account, { specialAdCategories: ['HOUSING'], specialAdCategoryCountries: ['US'] });
    refusedAt(
      await post('/ads/adsets', adSetBody(account, housing, { targeting: { geoLocations: { countries: ['US'] }, genders: ['male'] } })),
      'body/targeting/genders',
    );
    refusedAt(
      await post('/ads/adsets', adSetBody(account, housing, { targeting: { geoLocations: { countries: ['US'] }, ageMin: 30 } })),
      'body/targeting/ageMin',
    );
    const platform = await direct(account, {
      campaign_id: housing,
      daily_budget: 2000,
      targeting: { geo_locations: { countries: ['US'] }, genders: [1], targeting_automation: { advantage_audience: 0 } },
    });
    expect(platform.body.error).to.include({ error_subcode: 1885322 });
    expect((await post('/ads/adsets', adSetBody(account, housing))).status).to.equal(201);
  });

  it("objective ↔ optimisation goal ↔ billing event: a goal outside the objective's (2490408), billing on another event than the goal (1815117)", async () => {
    const account = await ads.connect();
    const awareness = await campaign(account, { objective: 'OUTCOME_AWARENESS' });
    refusedAt(await post('/ads/adsets', adSetBody(account, awareness)), 'body/optimizationGoal');
    expect((await direct(account, { campaign_id: awareness, daily_budget: 2000 })).body.error).to.include({ error_subcode: 2490408 });

    const traffic = await campaign(account);
    refusedAt(
      await post('/ads/adsets', adSetBody(account, traffic, { optimizationGoal: 'REACH', billingEvent: 'LINK_CLICKS' })),
      'body/billingEvent',
    );
    expect(
      (await direct(account, { campaign_id: traffic, daily_budget: 2000, optimization_goal: 'REACH', billing_event: 'LINK_CLICKS' })).body
        .error,
    ).to.include({ error_subcode: 1815117 });
    const clicks = await post('/ads/adsets', adSetBody(account, traffic, { billingEvent: 'LINK_CLICKS', dailyBudget: 500 }));
    expect(clicks.status, JSON.stringify(clicks.body)).to.equal(201);
  });

  it('minimum budgets per currency and billing event: 1.00 EUR on impressions, 5.00 EUR on clicks (platform 1885272)', async () => {
    const account = await ads.connect();
    const campaignId = await campaign(account);
    const low = await post('/ads/adsets', adSetBody(account, campaignId, { dailyBudget: 499, billingEvent: 'LINK_CLICKS' }));
    refusedAt(low, 'body/dailyBudget');
    expect(low.body.detail).to.include('5.00 EUR');
    expect((await direct(account, { campaign_id: campaignId, daily_budget: 499, billing_event: 'LINK_CLICKS' })).body.error).to.include({
      error_subcode: 1885272,
    });
    expect((await post('/ads/adsets', adSetBody(account, campaignId, { dailyBudget: 100 }))).status).to.equal(201);
  });

  it('a lifetime budget covers the daily minimum for each day of its schedule: 10 days on impressions is at least 10.00 EUR, on a campaign or an ad set, made or changed', async () => {
    const account = await ads.connect();
    const start = new Date(Date.now() + 3_600_000);
    const schedule = { startTime: start.toISOString(), endTime: new Date(start.getTime() + 10 * 86_400_000).toISOString() };
    const campaignId = await campaign(account);
    const low = await post('/ads/adsets', adSetBody(account, campaignId, { dailyBudget: undefined, lifetimeBudget: 999, ...schedule }));
    refusedAt(low, 'body/lifetimeBudget');
    expect(low.body.detail).to.include('10.00 EUR').and.include('10 days');
    const made = await post('/ads/adsets', adSetBody(account, campaignId, { dailyBudget: undefined, lifetimeBudget: 1000, ...schedule }));
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const longer = await t.app.api.patch('/ads/object', {
      token: t.owner.key,
      body: {
        adAccountId: account.adAccountId,
        objectId: made.body.id,
        level: 'adset',
        endTime: new Date(start.getTime() + 20 * 86_400_000).toISOString(),
      },
    });
    refusedAt(longer, 'body/lifetimeBudget');
    expect(longer.body.detail).to.include('20.00 EUR');

    const lowCampaign = await post(
      '/ads/campaigns',
      campaignBody(account, {
        lifetimeBudget: 299,
        startTime: schedule.startTime,
        stopTime: new Date(start.getTime() + 3 * 86_400_000).toISOString(),
      }),
    );
    refusedAt(lowCampaign, 'body/lifetimeBudget');
    expect(await ads.onPlatform(account, 'campaign')).to.have.length(1);
  });

  it("languages: GET /ads/targeting/locales gives the platform's locale keys, which targeting.locales takes and an ad set keeps", async () => {
    const account = await ads.connect();
    const found = await t.app.api.get(`/ads/targeting/locales?adAccountId=${account.adAccountId}&q=german`, { token: t.owner.key });
    expect(found.status, JSON.stringify(found.body)).to.equal(200);
    expect(found.body.data).to.deep.equal([
      { id: '5', name: 'German', type: 'locale', path: ['German'], audienceSizeLowerBound: null, audienceSizeUpperBound: null },
    ]);
    const campaignId = await campaign(account);
    const made = await post(
      '/ads/adsets',
      adSetBody(account, campaignId, { targeting: { geoLocations: { countries: ['US'] }, locales: ['5'] } }),
    );
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    expect(made.body.targeting).to.deep.include({ locales: ['5'], advantageAudience: false });
    const [onPlatform] = await ads.onPlatform(account, 'adset');
    expect(onPlatform.fields.targeting.locales).to.deep.equal([5]);
  });

  itPagesThroughPlatform(t, 'listAdSets', async (count) => {
    const account = await ads.connect();
    const [first, second] = [await campaign(account), await campaign(account)];
    const ids: string[] = [];
    const ofFirst: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const campaignId = i % 2 === 0 ? first : second;
      const id = (await post('/ads/adsets', adSetBody(account, campaignId, { name: `Ad set ${i}` }))).body.id;
      ids.unshift(id);
      if (campaignId === first) ofFirst.unshift(id);
    }
    return { path: `/ads/adsets?adAccountId=${account.adAccountId}`, ids, filter: { query: `campaignId=${first}`, ids: ofFirst } };
  });
});
