import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { itPagesThroughPlatform } from '../../support/keyset-list.js';
import { campaignBody, marketing } from './tree-support.js';

describeApi('campaigns — POST|GET /ads/campaigns on the social network (Marketing API)', (t) => {
  const ads = marketing(t);
  const create = (body: unknown, key?: string) =>
    t.app.api.post('/ads/campaigns', { token: t.owner.key, body, ...(key ? { headers: { 'Idempotency-Key': key } } : {}) });

  it('createCampaign creates it paused on the platform and answers it as the platform keeps it, raw status beside the normalised one', async () => {
    const account = await ads.connect();
    const created = await create(campaignBody(account, { dailyBudget: 5000, bidStrategy: 'LOWEST_COST_WITHOUT_CAP' }));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({
      level: 'campaign',
      adAccountId: account.adAccountId,
      platform: 'social_network',
      objective: 'OUTCOME_TRAFFIC',
      status: 'PAUSED',
      effectiveStatus: 'PAUSED',
      platformStatus: 'PAUSED',
      status_name: 'Paused',
      dailyBudget: 5000,
      currency: 'EUR',
      isAdsetBudgetSharingEnabled: null,
    });
    const [onPlatform] = await ads.onPlatform(account, 'campaign');
    expect(onPlatform.id).to.equal(created.body.id);
    expect(onPlatform.fields).to.include({ daily_budget: 5000, objective: 'OUTCOME_TRAFFIC' });
    expect(onPlatform.fields.special_ad_categories).to.deep.equal([]);
  });

  it('v23 budget sharing: a campaign without a budget says is_adset_budget_sharing_enabled (false by default), which the platform requires', async () => {
    const account = await ads.connect();
    const created = await create(campaignBody(account));
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ dailyBudget: null, lifetimeBudget: null, isAdsetBudgetSharingEnabled: false });
    const shared = await create(campaignBody(account, { isAdsetBudgetSharingEnabled: true }));
    expect(shared.body.isAdsetBudgetSharingEnabled).to.equal(true);

    const unsaid = await ads.graph(account, 'POST', `${account.platformId}/campaigns`, {
      name: 'No word on sharing',
      objective: 'OUTCOME_TRAFFIC',
      special_ad_categories: [],
    });
    expect(unsaid.body.error).to.include({ code: 100, error_subcode: 4834011 });

    const capped = await create(campaignBody(account, { isAdsetBudgetSharingEnabled: true, bidStrategy: 'COST_CAP' }));
    expect(capped.status).to.equal(422);
    expect(capped.body).to.include({ code: 'ad_platform_rejected' });
    expect(capped.body.errors[0].path).to.equal('body/bidStrategy');
    expect(capped.body).to.not.have.property('platformCode');
    expect(await ads.onPlatform(account, 'campaign')).to.have.length(2);
  });

  it('special ad categories need their countries: refused naming specialAdCategoryCountries, as the platform refuses them', async () => {
    const account = await ads.connect();
    const refused = await create(campaignBody(account, { specialAdCategories: ['HOUSING'] }));
    expect(refused.status).to.equal(422);
    expect(refused.body.errors).to.deep.equal([
      { path: 'body/specialAdCategoryCountries', code: 'ad_platform_rejected', message: refused.body.detail },
    ]);
    const direct = await ads.graph(account, 'POST', `${account.platformId}/campaigns`, {
      name: 'Flats',
      objective: 'OUTCOME_TRAFFIC',
      special_ad_categories: ['HOUSING'],
      is_adset_budget_sharing_enabled: 'false',
    });
    expect(direct.body.error).to.include({ code: 100, error_subcode: 3858495 });

    const declared = await create(campaignBody(account, { specialAdCategories: ['HOUSING'], specialAdCategoryCountries: ['DE'] }));
    expect(declared.status, JSON.stringify(declared.body)).to.equal(201);
    expect(declared.body).to.deep.include({ specialAdCategories: ['HOUSING'], specialAdCategoryCountries: ['DE'] });
  });

  it("minimum budgets are in the account currency's real minor units: 150 JPY is 150, not 15000 (JPY has none)", async () => {
    const yen = await ads.connect({ currency: 'JPY' });
    const under = await create(campaignBody(yen, { dailyBudget: 149 }));
    expect(under.status).to.equal(422);
    expect(under.body.errors[0].path).to.equal('body/dailyBudget');
    expect(under.body.detail).to.include('150 JPY');
    const taken = await create(campaignBody(yen, { dailyBudget: 150 }));
    expect(taken.status, JSON.stringify(taken.body)).to.equal(201);
    expect(taken.body).to.include({ dailyBudget: 150, currency: 'JPY' });
    expect((await ads.onPlatform(yen, 'campaign'))[0].fields.daily_budget).to.equal(150);
  });

  it("validateOnly asks the platform's own dry run and creates nothing; a refusal is the 422 a create would get", async () => {
    const account = await ads.connect();
    const checked = await create(campaignBody(account, { validateOnly: true }));
    expect(checked.status, JSON.stringify(checked.body)).to.equal(200);
    expect(checked.body).to.deep.equal({ level: 'campaign', valid: true, checkedBy: 'platform' });
    const refused = await create(campaignBody(account, { validateOnly: true, specialAdCategories: ['CREDIT'] }));
    expect(refused.status).to.equal(422);
    expect(refused.body.errors[0].path).to.equal('body/specialAdCategoryCountries');
    expect(await ads.onPlatform(account, 'campaign')).to.deep.equal([]);
  });

  it('idempotency: the same key answers the same campaign, made once; another body under it is refused', async () => {
    const account = await ads.connect();
    const first = await create(campaignBody(account), 'camp-1');
    const again = await create(campaignBody(account), 'camp-1');
    expect(again.status).to.equal(201);
    expect(again.body.id).to.equal(first.body.id);
    expect(await ads.onPlatform(account, 'campaign')).to.have.length(1);
    const other = await create(campaignBody(account, { name: 'Another' }), 'camp-1');
    expect(other.status).to.equal(422);
    expect(other.body.code).to.equal('idempotency_key_reused');
  });

  it('a lost answer: the campaign was made, the retry with the same key finds it on the platform and makes no second one', async () => {
    const account = await ads.connect();
    await ads.fail(account, [{ kind: 'lose_answer', edge: 'campaigns' }]);
    const lost = await create(campaignBody(account), 'camp-lost');
    expect(lost.status, JSON.stringify(lost.body)).to.be.oneOf([502, 503]);
    const made = await ads.onPlatform(account, 'campaign');
    expect(made).to.have.length(1);

    const retried = await create(campaignBody(account), 'camp-lost');
    expect(retried.status, JSON.stringify(retried.body)).to.equal(201);
    expect(retried.body.id).to.equal(made[0].id);
    expect(await ads.onPlatform(account, 'campaign')).to.have.length(1);
  });

  it('a disabled ad account: 422 ad_account_disabled from the platform, nothing made', async () => {
    const account = await ads.connect();
    await ads.settings(account, { status: 2 });
    const refused = await create(campaignBody(account));
    expect(refused.status).to.equal(422);
    expect(refused.body.code).to.equal('ad_account_disabled');
    expect(await ads.onPlatform(account, 'campaign')).to.deep.equal([]);
  });

  itPagesThroughPlatform(t, 'listCampaigns', async (count) => {
    const account = await ads.connect();
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      const objective = i % 2 === 0 ? 'OUTCOME_TRAFFIC' : 'OUTCOME_AWARENESS';
      ids.unshift((await create(campaignBody(account, { name: `Campaign ${i}`, objective }))).body.id);
    }
    const awareness = ids.filter((_, index) => (count - 1 - index) % 2 === 1);
    return {
      path: `/ads/campaigns?adAccountId=${account.adAccountId}`,
      ids,
      filter: { query: 'objective=OUTCOME_AWARENESS', ids: awareness },
    };
  });

  it('listCampaigns leaves deleted campaigns out unless effectiveStatus asks; updatedSince narrows by the last change', async () => {
    const account = await ads.connect();
    const kept = (await create(campaignBody(account, { name: 'Kept' }))).body;
    const gone = (await create(campaignBody(account, { name: 'Gone' }))).body;
    const deleted = await t.app.api.delete(`/ads/object?adAccountId=${account.adAccountId}&objectId=${gone.id}&level=campaign`, {
      token: t.owner.key,
    });
    expect(deleted.status).to.equal(204);
    const list = (query = '') => t.app.api.get(`/ads/campaigns?adAccountId=${account.adAccountId}${query}`, { token: t.owner.key });
    expect((await list()).body.data.map((c: { id: string }) => c.id)).to.deep.equal([kept.id]);
    const withDeleted = await list('&effectiveStatus=DELETED,PAUSED');
    expect(withDeleted.body.data.map((c: { id: string; status: string }) => [c.id, c.status])).to.deep.equal([
      [gone.id, 'DELETED'],
      [kept.id, 'PAUSED'],
    ]);
    expect((await list(`&updatedSince=${new Date(Date.now() + 5000).toISOString()}`)).body.data).to.deep.equal([]);
    const cursorOfAnother = (await list('&limit=1&effectiveStatus=DELETED,PAUSED')).body.nextCursor;
    const misused = await list(`&cursor=${cursorOfAnother}`);
    expect(misused.status).to.equal(400);
    expect(misused.body.code).to.equal('invalid_cursor');
  });
});
