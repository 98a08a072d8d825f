import { expect } from 'chai';
import { idOf } from '../../../src/lib/ids.js';
import { withConnectedAccount } from '../../../src/modules/accounts/platform-call.js';
import type { Principal } from '../../../src/modules/auth/principal.js';
import {
  type AdCampaignInput,
  type AdCampaigns,
  AdRefused,
  type AdsAccount,
  type AdSetInput,
} from '../../../src/platforms/capabilities/ad-campaigns.js';
import { PlatformError } from '../../../src/platforms/errors.js';
import { describeApi } from '../../support/harness.js';
import { connectAdvertiser } from '../../support/sandbox/short-video-ads.js';

describeApi('short_video_ads AdCampaigns — the TikTok Business API v1.3 campaign tree behind the capability', (t) => {
  const { shortVideoAds } = t.sandbox;
  const owner = (): Principal => ({ kind: 'session', ownerId: t.owner.ownerId, sessionId: 'sess_test' });

  /** A new advertiser in `currency`, connected; `run` calls the capability for it through the one seam. */
  async function advertiser(currency = 'USD') {
    const { adAccountId, advertiser: tiktok } = await connectAdvertiser(t.app, t.owner, shortVideoAds, { currency });
    const run = <T>(call: (campaigns: AdCampaigns, account: AdsAccount) => Promise<T>) =>
      withConnectedAccount(t.app.services, owner(), { adAccountId: idOf('adacc', adAccountId) }, 'adCampaigns', (adapter, account, row) =>
        call(adapter.adCampaigns, { ...account, currency: row.currency }),
      );
    return { run, advertiserId: tiktok.advertiser_id };
  }
  /** The call's refusal, unmapped: the capability's own error. */
  const refusal = <T>(promise: Promise<T>) =>
    promise.then(
      () => expect.fail('the call was not refused'),
      (error: unknown) => error,
    );
  const direct = async (currency = 'USD') => {
    const { advertiserId, run } = await advertiser(currency);
    let seen: { campaigns: AdCampaigns; account: AdsAccount } | undefined;
    await run(async (campaigns, account) => {
      seen = { campaigns, account };
    });
    return { advertiserId, ...seen! };
  };

  /** The Business API itself, asked with the token the service keeps. */
  const businessApi = (account: AdsAccount, path: string, body?: unknown) =>
    fetch(`${t.app.services.sandboxUrl}/short_video_ads/open_api/v1.3/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'Access-Token': account.credentials.accessToken, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const campaign = (extra: Partial<AdCampaignInput> = {}): AdCampaignInput => ({
    name: 'Winter blend',
    objective: 'OUTCOME_TRAFFIC',
    status: 'ACTIVE',
    specialAdCategories: [],
    specialAdCategoryCountries: [],
    isAdsetBudgetSharingEnabled: false,
    ...extra,
  });
  const adset = (campaignId: string, extra: Partial<AdSetInput> = {}): AdSetInput => ({
    campaignId,
    name: 'US women 25-44',
    status: 'ACTIVE',
    dailyBudget: 2550,
    billingEvent: 'LINK_CLICKS',
    optimizationGoal: 'LINK_CLICKS',
    targeting: { geoLocations: { countries: ['US'] }, ageMin: 25, ageMax: 44, genders: ['female'] },
    ...extra,
  });

  it('minor units go to TikTok as decimals and come back the same; the raw secondary_status is kept beside the normalised status through review', async () => {
    const { campaigns, account, advertiserId } = await direct();
    const made = await campaigns.create(account, 'campaign', campaign());
    expect(made).to.include({ objective: 'OUTCOME_TRAFFIC', status: 'ACTIVE', dailyBudget: null, isAdsetBudgetSharingEnabled: false });
    const group = await campaigns.create(account, 'adset', adset(made.id));
    expect(group).to.include({
      dailyBudget: 2550,
      currency: 'USD',
      effectiveStatus: 'ACTIVE',
      platformStatus: 'ADGROUP_STATUS_DELIVERY_OK',
    });
    expect(group.targeting).to.deep.equal({ geoLocations: { countries: ['US'] }, ageMin: 25, ageMax: 44, genders: ['female'] });
    const ad = await campaigns.create(account, 'ad', {
      adsetId: group.id,
      creativeId: 'v10033g50000ct1',
      name: 'Pour-over',
      status: 'ACTIVE',
      urlTags: 'utm_source=tiktok&utm_campaign=winter',
    });
    expect(ad).to.include({ effectiveStatus: 'PENDING_REVIEW', platformStatus: 'AD_STATUS_AUDIT', creativeId: 'v10033g50000ct1' });
    expect(ad.urlTags).to.equal('utm_source=tiktok&utm_campaign=winter');

    const platform = await shortVideoAds.onPlatform(advertiserId);
    expect(platform.adgroups.map((g) => [g.budget, g.budget_mode, g.location_ids, g.age_groups, g.gender])).to.deep.equal([
      [25.5, 'BUDGET_MODE_DAY', ['6252001'], ['AGE_25_34', 'AGE_35_44'], 'GENDER_FEMALE'],
    ]);
    expect(platform.ads.map((a) => [a.ad_text, a.ad_format, a.video_id])).to.deep.equal([['Pour-over', 'SINGLE_VIDEO', 'v10033g50000ct1']]);

    await shortVideoAds.reviewAd(ad.id, 'approve');
    expect(await campaigns.get(account, 'ad', ad.id)).to.include({ effectiveStatus: 'ACTIVE', platformStatus: 'AD_STATUS_DELIVERY_OK' });
    await shortVideoAds.reviewAd(ad.id, 'deny');
    expect(await campaigns.get(account, 'ad', ad.id)).to.include({
      effectiveStatus: 'DISAPPROVED',
      platformStatus: 'AD_STATUS_AUDIT_DENY',
    });
  });

  it('JPY has no minor units: a 6000 yen lifetime budget is 6000 on TikTok and 6000 when read; a campaign budget is shared by its ad groups', async () => {
    const { campaigns, account, advertiserId } = await direct('JPY');
    const made = await campaigns.create(account, 'campaign', campaign({ lifetimeBudget: 6000 }));
    expect(made).to.include({ lifetimeBudget: 6000, dailyBudget: null, currency: 'JPY', isAdsetBudgetSharingEnabled: null });
    const shared = await campaigns.create(account, 'adset', adset(made.id, { dailyBudget: undefined }));
    expect(shared).to.include({ dailyBudget: null, lifetimeBudget: null });
    expect(
      (await shortVideoAds.onPlatform(advertiserId)).campaigns.map((c) => [c.budget, c.budget_mode, c.budget_optimize_on]),
    ).to.deep.equal([[6000, 'BUDGET_MODE_TOTAL', true]]);
  });

  it("TikTok's rules are refused before anything is sent, naming our member: minimum budgets, one budget level, the objective's goals and billing", async () => {
    const { campaigns, account, advertiserId } = await direct();
    const low = await refusal(campaigns.create(account, 'campaign', campaign({ dailyBudget: 4999 })));
    expect(low).to.be.instanceOf(AdRefused).and.include({ field: 'dailyBudget' });
    expect((low as Error).message).to.include('at least 50 USD');
    const shared = await campaigns.create(account, 'campaign', campaign({ name: 'Shared', dailyBudget: 5000 }));
    expect(await refusal(campaigns.create(account, 'adset', adset(shared.id)))).to.include({ field: 'dailyBudget' });
    const plain = await campaigns.create(account, 'campaign', campaign({ name: 'Per ad group' }));
    const cheap = await refusal(campaigns.create(account, 'adset', adset(plain.id, { dailyBudget: 1999 })));
    expect((cheap as Error).message).to.include('at least 20 USD');
    const week = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const total = await refusal(
      campaigns.create(account, 'adset', adset(plain.id, { dailyBudget: undefined, lifetimeBudget: 10_000, endTime: week })),
    );
    expect(total).to.include({ field: 'lifetimeBudget' });
    expect((total as Error).message).to.include('at least 140 USD (20 a day for 7 days)');
    expect(await refusal(campaigns.create(account, 'adset', adset(plain.id, { optimizationGoal: 'APP_INSTALLS' })))).to.include({
      field: 'optimizationGoal',
    });
    expect(await refusal(campaigns.create(account, 'adset', adset(plain.id, { billingEvent: 'THRUPLAY' })))).to.include({
      field: 'billingEvent',
    });
    expect(
      await refusal(campaigns.validate(account, 'campaign', campaign({ specialAdCategories: ['ONLINE_GAMBLING_AND_GAMING'] }))),
    ).to.include({
      field: 'specialAdCategories',
    });
    await campaigns.validate(account, 'adset', adset(plain.id));
    expect((await shortVideoAds.onPlatform(advertiserId)).adgroups).to.deep.equal([]);
  });

  it("an ad shows itself as the advertiser's custom identity (identity/get), which the Business API requires of an ad that is not a Spark ad", async () => {
    const { campaigns, account, advertiserId } = await direct();
    const group = await campaigns.create(account, 'adset', adset((await campaigns.create(account, 'campaign', campaign())).id));
    await campaigns.create(account, 'ad', { adsetId: group.id, creativeId: 'v10033g50000ct1', name: 'Pour-over', status: 'ACTIVE' });
    const [identity] = (await (await businessApi(account, `identity/get/?advertiser_id=${advertiserId}`)).json()).data.identity_list;
    expect(identity).to.include({ identity_type: 'CUSTOMIZED_USER' });
    const platform = await shortVideoAds.onPlatform(advertiserId);
    expect(platform.ads.map((a) => [a.identity_type, a.identity_id])).to.deep.equal([['CUSTOMIZED_USER', identity.identity_id]]);

    const creative = { ad_name: 'No identity', ad_format: 'SINGLE_VIDEO', video_id: 'v10033g50000ct1', ad_text: 'No identity' };
    const bare = await businessApi(account, 'ad/create/', { advertiser_id: advertiserId, adgroup_id: group.id, creatives: [creative] });
    expect(await bare.json())
      .to.deep.include({ code: 40002 })
      .and.satisfy((b: { message: string }) => b.message.startsWith('creatives.identity_id'));
    const other = { ...creative, identity_id: 'ci0', identity_type: 'CUSTOMIZED_USER' };
    const foreign = await businessApi(account, 'ad/create/', { advertiser_id: advertiserId, adgroup_id: group.id, creatives: [other] });
    expect((await foreign.json()).code).to.equal(40002);
    expect((await shortVideoAds.onPlatform(advertiserId)).ads).to.have.length(1);
  });

  it("the platform's own refusal (40002) is an AdRefused naming our member with the platform's code", async () => {
    const { campaigns, account } = await direct();
    await campaigns.create(account, 'campaign', campaign());
    const taken = await refusal(campaigns.create(account, 'campaign', campaign()));
    expect(taken).to.be.instanceOf(AdRefused).and.include({ field: 'name', platformCode: 40002 });
    expect((taken as Error).message).to.equal('campaign_name: The campaign name already exists.');
  });

  it('a lost answer is found by name and creation time without creating anything again; nothing made since is null', async () => {
    const { campaigns, account, advertiserId } = await direct();
    const since = new Date();
    expect(await campaigns.findCreated(account, 'campaign', campaign({ name: 'Lost once' }), since)).to.equal(null);
    await shortVideoAds.loseNext();
    const lost = await refusal(campaigns.create(account, 'campaign', campaign({ name: 'Lost once' })));
    expect(lost).to.be.instanceOf(PlatformError).and.include({ kind: 'transient' });
    const found = await campaigns.findCreated(account, 'campaign', campaign({ name: 'Lost once' }), since);
    const onPlatform = (await shortVideoAds.onPlatform(advertiserId)).campaigns;
    expect(onPlatform.map((c) => c.campaign_id)).to.deep.equal([found!.id]);
  });

  it('changes, pauses and deletes: a deleted campaign takes its ad groups and ads with it, stays readable, and deleting it again is true', async () => {
    const { campaigns, account } = await direct();
    const made = await campaigns.create(account, 'campaign', campaign());
    const group = await campaigns.create(account, 'adset', adset(made.id));
    const ad = await campaigns.create(account, 'ad', { adsetId: group.id, creativeId: 'v1', name: 'A', status: 'ACTIVE' });
    const changed = await campaigns.update(account, 'adset', group.id, {
      status: 'PAUSED',
      name: 'Renamed',
      dailyBudget: 3000,
      bidAmount: 150,
    });
    expect(changed).to.include({ status: 'PAUSED', effectiveStatus: 'PAUSED', name: 'Renamed', dailyBudget: 3000, bidAmount: 150 });
    expect(changed).to.include({ bidStrategy: 'LOWEST_COST_WITH_BID_CAP', platformStatus: 'ADGROUP_STATUS_DISABLE' });
    expect(await campaigns.get(account, 'ad', ad.id)).to.include({ effectiveStatus: 'ADSET_PAUSED', status: 'ACTIVE' });
    expect(await refusal(campaigns.update(account, 'adset', group.id, { lifetimeBudget: 9000 }))).to.include({ field: 'lifetimeBudget' });
    expect(await refusal(campaigns.update(account, 'ad', ad.id, { status: 'ARCHIVED' }))).to.include({ field: 'status' });

    expect(await campaigns.delete(account, 'campaign', made.id)).to.equal(true);
    expect(await campaigns.delete(account, 'campaign', made.id)).to.equal(true);
    expect(await campaigns.get(account, 'ad', ad.id)).to.include({
      status: 'DELETED',
      effectiveStatus: 'DELETED',
      platformStatus: 'AD_STATUS_CAMPAIGN_DELETE',
    });
    const refused = await refusal(campaigns.update(account, 'campaign', made.id, { name: 'Too late' }));
    expect(refused).to.be.instanceOf(AdRefused).and.include({ platformCode: 40002 });
    expect(await campaigns.get(account, 'campaign', '1799999999999999999')).to.equal(null);
    expect(await campaigns.update(account, 'ad', '1799999999999999999', { name: 'x' })).to.equal(null);
    expect(await campaigns.delete(account, 'adset', '1799999999999999999')).to.equal(false);
  });

  it("lists page through the platform's pages newest first, narrowed by parent, objective and effective status (deleted ones only when asked)", async () => {
    const { campaigns, account } = await direct();
    for (const name of ['P0', 'P1', 'P2', 'P3']) await campaigns.create(account, 'campaign', campaign({ name, status: 'PAUSED' }));
    const sales = await campaigns.create(account, 'campaign', campaign({ name: 'Sales', objective: 'OUTCOME_SALES' }));
    const first = await campaigns.list(account, 'campaign', {}, 2);
    const second = await campaigns.list(account, 'campaign', {}, 2, first.nextCursor!);
    const third = await campaigns.list(account, 'campaign', {}, 2, second.nextCursor!);
    expect([first, second, third].map((page) => page.items.map((c) => c.name))).to.deep.equal([['Sales', 'P3'], ['P2', 'P1'], ['P0']]);
    expect(third.nextCursor).to.equal(null);
    expect((await campaigns.list(account, 'campaign', { objective: 'OUTCOME_SALES' }, 10)).items.map((c) => c.name)).to.deep.equal([
      'Sales',
    ]);
    expect((await campaigns.list(account, 'campaign', { effectiveStatus: ['ACTIVE'] }, 10)).items.map((c) => c.name)).to.deep.equal([
      'Sales',
    ]);
    const group = await campaigns.create(
      account,
      'adset',
      adset(sales.id, { optimizationGoal: 'OFFSITE_CONVERSIONS', billingEvent: 'IMPRESSIONS' }),
    );
    await campaigns.delete(account, 'campaign', sales.id);
    expect((await campaigns.list(account, 'campaign', {}, 10)).items.map((c) => c.name)).to.deep.equal(['P3', 'P2', 'P1', 'P0']);
    const deleted = await campaigns.list(account, 'adset', { campaignId: sales.id, effectiveStatus: ['DELETED'] }, 10);
    expect(deleted.items.map((g) => [g.id, g.platformStatus])).to.deep.equal([[group.id, 'ADGROUP_STATUS_CAMPAIGN_DELETE']]);
  });

  it('throttling (40100) is a rate-limited PlatformError with a time to come back; a revoked token is auth_expired', async () => {
    const { campaigns, account, advertiserId } = await direct();
    await shortVideoAds.failNext(40100, 'Too many requests.');
    const throttled = await refusal(campaigns.create(account, 'campaign', campaign()));
    expect(throttled).to.be.instanceOf(PlatformError).and.include({ kind: 'rate_limited' });
    expect((throttled as PlatformError).details.retryAt).to.be.instanceOf(Date);
    await shortVideoAds.revokeToken([advertiserId]);
    expect(await refusal(campaigns.list(account, 'campaign', {}, 10))).to.include({ kind: 'auth_expired' });
    expect((await shortVideoAds.onPlatform(advertiserId)).campaigns).to.deep.equal([]);
  });
});
