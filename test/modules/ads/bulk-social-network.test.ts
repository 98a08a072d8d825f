import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { MarketingInsightsPeople } from './insights-support.js';
import { expectTreeFiguresAsInsights, marketing, statusOutcomes, type TreeAccount } from './tree-support.js';

describeApi(
  'a campaign as a tree, copies, and pausing or resuming many objects on the social network — GET /ads/tree, POST /ads/copies, POST /ads/status',
  (t) => {
    const ads = marketing(t);
    const tree = (account: TreeAccount, campaignId: string, extra: Record<string, string> = {}) =>
      t.app.api.get(`/ads/tree?${new URLSearchParams({ adAccountId: account.adAccountId, campaignId, ...extra })}`, {
        token: t.owner.key,
      });
    const remove = (account: TreeAccount, objectId: string, level: string) =>
      t.app.api.delete(`/ads/object?adAccountId=${account.adAccountId}&objectId=${objectId}&level=${level}`, { token: t.owner.key });
    const shape = (body: { adsets: Array<{ adset: { name: string }; ads: Array<{ name: string }> }> }) =>
      body.adsets.map(({ adset, ads: inIt }) => [adset.name, inIt.map((ad) => ad.name)]);

    it('GET /ads/tree answers the campaign with its ad sets and, in each, its ads; deleted ones only when asked', async () => {
      const made = await ads.tree();
      const read = await tree(made.account, made.campaign.id);
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body.campaign).to.include({ id: made.campaign.id, level: 'campaign', platform: 'social_network', status: 'ACTIVE' });
      expect(shape(read.body)).to.deep.equal([
        ['CA', ['CA one']],
        ['US', ['US two', 'US one']],
      ]);
      expect(read.body.adsets[1].ads[0]).to.include({ status: 'ACTIVE', effectiveStatus: 'PENDING_REVIEW', adsetId: made.adsets.us.id });

      expect((await remove(made.account, made.ads[1]!.id, 'ad')).status).to.equal(204);
      expect(shape((await tree(made.account, made.campaign.id)).body)).to.deep.equal([
        ['CA', ['CA one']],
        ['US', ['US one']],
      ]);
      const all = await tree(made.account, made.campaign.id, { includeDeleted: 'true' });
      expect(shape(all.body)).to.deep.equal([
        ['CA', ['CA one']],
        ['US', ['US two', 'US one']],
      ]);
      expect(all.body.adsets[1].ads[0]).to.include({ status: 'DELETED', platformStatus: 'DELETED' });

      expect((await tree(made.account, made.adsets.us.id)).status).to.equal(404);
    });

    it('GET /ads/tree gives each object the figures GET /ads/insights gives it (last_7d by default); a refused insights read leaves them null with why', async () => {
      const made = await ads.tree();
      const read = await tree(made.account, made.campaign.id);
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body).to.include({ figuresPeriod: 'last_7d', figuresUnavailable: null });
      await expectTreeFiguresAsInsights(t, made.account.adAccountId, read.body, 'last_7d');
      const month = await tree(made.account, made.campaign.id, { datePreset: 'last_28d' });
      expect(month.body.campaign.figures.impressions).to.be.above(read.body.campaign.figures.impressions);
      await expectTreeFiguresAsInsights(t, made.account.adAccountId, month.body, 'last_28d');

      await new MarketingInsightsPeople(() => t.app).limitInsightsRows(made.account.platformId, 1);
      const refused = await tree(made.account, made.campaign.id);
      expect(refused.status, JSON.stringify(refused.body)).to.equal(200);
      expect(refused.body.figuresUnavailable).to.match(/refused the insights read/);
      expect(refused.body.campaign.figures).to.equal(null);
      expect(refused.body.adsets[0].adset.figures).to.equal(null);
      expect(refused.body.adsets[0].ads[0].figures).to.equal(null);
      expect(shape(refused.body)).to.deep.equal(shape(read.body));
    });

    it('POST /ads/status pauses objects with an outcome for each: a deleted or unknown one fails alone; the platform keeps the rest paused', async () => {
      const made = await ads.tree();
      expect((await remove(made.account, made.ads[2]!.id, 'ad')).status).to.equal(204);
      const paused = await t.app.api.post('/ads/status', {
        token: t.owner.key,
        body: {
          adAccountId: made.account.adAccountId,
          status: 'PAUSED',
          objects: [
            { objectId: made.adsets.us.id, level: 'adset' },
            { objectId: made.ads[2]!.id, level: 'ad' },
            { objectId: '1799999999999999999', level: 'campaign' },
            { objectId: made.ads[0]!.id, level: 'ad' },
          ],
        },
      });
      expect(paused.status, JSON.stringify(paused.body)).to.equal(200);
      expect(statusOutcomes(paused.body)).to.deep.equal([
        [made.adsets.us.id, 'succeeded', ['PAUSED', 'PAUSED'], null],
        [made.ads[2]!.id, 'failed', null, 'ad_platform_rejected'],
        ['1799999999999999999', 'failed', null, 'not_found'],
        [made.ads[0]!.id, 'succeeded', ['PAUSED', 'PAUSED'], null],
      ]);
      const onPlatform = await ads.onPlatform(made.account);
      const statusOf = (id: string) => onPlatform.find((object) => object.id === id)!.status;
      expect([made.adsets.us.id, made.adsets.ca.id, made.ads[0]!.id, made.ads[1]!.id].map(statusOf)).to.deep.equal([
        'PAUSED',
        'ACTIVE',
        'PAUSED',
        'ACTIVE',
      ]);
      // The ad left active in the paused ad set: its parent's pause is what the platform derives.
      expect(onPlatform.find((object) => object.id === made.ads[1]!.id)!.review).to.equal('PENDING_REVIEW');

      const resumed = await t.app.api.post('/ads/status', {
        token: t.owner.key,
        body: { adAccountId: made.account.adAccountId, status: 'ACTIVE', objects: [{ objectId: made.adsets.us.id, level: 'adset' }] },
      });
      expect(resumed.body.results[0]).to.deep.include({ outcome: 'succeeded', error: null });
      expect(resumed.body.results[0].object).to.include({ status: 'ACTIVE', platformStatus: 'ACTIVE' });
    });

    it('POST /ads/status on a disabled ad account fails the call as a whole: 422 ad_account_disabled', async () => {
      const made = await ads.tree();
      await ads.settings(made.account, { status: 2 });
      const refused = await t.app.api.post('/ads/status', {
        token: t.owner.key,
        body: { adAccountId: made.account.adAccountId, status: 'PAUSED', objects: [{ objectId: made.campaign.id, level: 'campaign' }] },
      });
      expect(refused.status, JSON.stringify(refused.body)).to.equal(422);
      expect(refused.body.code).to.equal('ad_account_disabled');
    });

    it('POST /ads/copies copies a campaign with its ad sets and ads, paused, named as asked; a retry with the key makes none twice', async () => {
      const made = await ads.tree();
      const body = { adAccountId: made.account.adAccountId, objectId: made.campaign.id, level: 'campaign', name: 'Winter blend - B' };
      const headers = { 'Idempotency-Key': 'copy-winter-blend' };
      const copied = await t.app.api.post('/ads/copies', { token: t.owner.key, body, headers });
      expect(copied.status, JSON.stringify(copied.body)).to.equal(201);
      expect(copied.body.object).to.include({
        level: 'campaign',
        name: 'Winter blend - B',
        status: 'PAUSED',
        objective: 'OUTCOME_TRAFFIC',
      });
      expect(copied.body.copies.map((c: { level: string; sourceId: string }) => [c.level, c.sourceId])).to.deep.equal([
        ['campaign', made.campaign.id],
        ['adset', made.adsets.ca.id],
        ['ad', made.ads[2]!.id],
        ['adset', made.adsets.us.id],
        ['ad', made.ads[1]!.id],
        ['ad', made.ads[0]!.id],
      ]);
      const again = await t.app.api.post('/ads/copies', { token: t.owner.key, body, headers });
      expect(again.status).to.equal(201);
      expect(again.body.copies).to.deep.equal(copied.body.copies);

      const onPlatform = await ads.onPlatform(made.account);
      // Each made by the platform's own copy of its source, one object at a time.
      const sourceOf = new Map(onPlatform.map((o) => [o.id, o.sourceId]));
      expect(copied.body.copies.map((c: { id: string }) => sourceOf.get(c.id))).to.deep.equal(
        copied.body.copies.map((c: { sourceId: string }) => c.sourceId),
      );
      expect(onPlatform.filter((o) => o.kind === 'campaign').map((o) => o.fields.name)).to.have.members([
        'Winter blend',
        'Winter blend - B',
      ]);
      expect(onPlatform.filter((o) => o.kind === 'adset')).to.have.length(4);
      expect(onPlatform.filter((o) => o.kind === 'ad')).to.have.length(6);
      const copyTree = await tree(made.account, copied.body.object.id);
      expect(
        copyTree.body.adsets.map(
          ({
            adset,
            ads: inIt,
          }: {
            adset: { name: string; status: string; dailyBudget: number };
            ads: Array<{ name: string; creativeId: string; status: string }>;
          }) => [adset.name, adset.status, adset.dailyBudget, inIt.map((ad) => [ad.name, ad.creativeId, ad.status])],
        ),
      ).to.have.deep.members([
        ['CA', 'PAUSED', 2000, [['CA one', made.creativeId, 'PAUSED']]],
        [
          'US',
          'PAUSED',
          2000,
          [
            ['US one', made.creativeId, 'PAUSED'],
            ['US two', made.creativeId, 'PAUSED'],
          ],
        ],
      ]);
    });

    it('POST /ads/copies copies an ad set alone into another campaign, and an ad into another ad set; an unknown object is 404', async () => {
      const made = await ads.tree();
      const other = await t.app.api.post('/ads/campaigns', {
        token: t.owner.key,
        body: { adAccountId: made.account.adAccountId, name: 'Spring', objective: 'OUTCOME_TRAFFIC' },
      });
      const adset = await t.app.api.post('/ads/copies', {
        token: t.owner.key,
        body: {
          adAccountId: made.account.adAccountId,
          objectId: made.adsets.us.id,
          level: 'adset',
          deep: false,
          status: 'ACTIVE',
          campaignId: other.body.id,
        },
      });
      expect(adset.status, JSON.stringify(adset.body)).to.equal(201);
      expect(adset.body.object).to.include({ name: 'US - Copy', status: 'ACTIVE', campaignId: other.body.id });
      expect(adset.body.copies).to.have.length(1);
      const ad = await t.app.api.post('/ads/copies', {
        token: t.owner.key,
        body: { adAccountId: made.account.adAccountId, objectId: made.ads[2]!.id, level: 'ad', adsetId: adset.body.object.id },
      });
      expect(ad.status, JSON.stringify(ad.body)).to.equal(201);
      expect(ad.body.object).to.include({
        adsetId: adset.body.object.id,
        name: 'CA one - Copy',
        creativeId: made.creativeId,
        status: 'PAUSED',
      });
      const unknown = await t.app.api.post('/ads/copies', {
        token: t.owner.key,
        body: { adAccountId: made.account.adAccountId, objectId: '1799999999999999999', level: 'ad' },
      });
      expect(unknown.status).to.equal(404);
    });

    it("POST /ads/copies: a copy whose answer was lost is found among the source's copies by the retry with the key, not made again", async () => {
      const made = await ads.tree();
      await ads.fail(made.account, [{ kind: 'lose_answer', edge: 'copies' }]);
      const request = {
        token: t.owner.key,
        body: { adAccountId: made.account.adAccountId, objectId: made.adsets.ca.id, level: 'adset' },
        headers: { 'Idempotency-Key': 'copy-ca' },
      };
      const lost = await t.app.api.post('/ads/copies', request);
      expect(lost.status, JSON.stringify(lost.body)).to.be.oneOf([502, 503]);
      const copied = await t.app.api.post('/ads/copies', request);
      expect(copied.status, JSON.stringify(copied.body)).to.equal(201);
      expect(copied.body.copies.map((c: { level: string }) => c.level)).to.deep.equal(['adset', 'ad']);
      expect(copied.body.object).to.include({ name: 'CA - Copy', campaignId: made.campaign.id });
      const onPlatform = await ads.onPlatform(made.account);
      expect(onPlatform.filter((o) => o.kind === 'adset' && o.fields.name === 'CA - Copy')).to.have.length(1);
      expect(onPlatform.filter((o) => o.kind === 'ad' && o.fields.name === 'CA one')).to.have.length(2);
    });
  },
);
