import { expect } from 'chai';
import { idOf } from '../../../src/lib/ids.js';
import { withConnectedAccount } from '../../../src/modules/accounts/platform-call.js';
import type { Principal } from '../../../src/modules/auth/principal.js';
import type { AdCampaigns, AdsAccount, AdSetInput } from '../../../src/platforms/capabilities/ad-campaigns.js';
import { describeApi } from '../../support/harness.js';
import { connectAdvertiser } from '../../support/sandbox/short-video-ads.js';
import { expectTreeFiguresAsInsights, statusOutcomes } from './tree-support.js';

describeApi(
  'a campaign as a tree, copies, and pausing or resuming many objects — GET /ads/tree, POST /ads/copies, POST /ads/status',
  (t) => {
    const { shortVideoAds } = t.sandbox;
    const owner = (): Principal => ({ kind: 'session', ownerId: t.owner.ownerId, sessionId: 'sess_test' });

    /** A connected advertiser and its campaign tree made on the platform: a campaign, two ad groups, three ads. */
    async function tiktokTree() {
      const { adAccountId, advertiser } = await connectAdvertiser(t.app, t.owner, shortVideoAds);
      const { campaigns, account } = await withConnectedAccount(
        t.app.services,
        owner(),
        { adAccountId: idOf('adacc', adAccountId) },
        'adCampaigns',
        async (adapter, opened, row) => ({
          campaigns: adapter.adCampaigns as AdCampaigns,
          account: { ...opened, currency: row.currency } as AdsAccount,
        }),
      );
      const campaign = await campaigns.create(account, 'campaign', {
        name: 'Winter blend',
        objective: 'OUTCOME_TRAFFIC',
        status: 'ACTIVE',
        specialAdCategories: [],
        specialAdCategoryCountries: [],
        isAdsetBudgetSharingEnabled: false,
      });
      const group = (name: string): AdSetInput => ({
        campaignId: campaign.id,
        name,
        status: 'ACTIVE',
        dailyBudget: 2500,
        billingEvent: 'LINK_CLICKS',
        optimizationGoal: 'LINK_CLICKS',
        targeting: { geoLocations: { countries: ['US'] }, ageMin: 18, ageMax: 65 },
      });
      const us = await campaigns.create(account, 'adset', group('US'));
      const de = await campaigns.create(account, 'adset', {
        ...group('DE'),
        targeting: { geoLocations: { countries: ['DE'] }, ageMin: 18, ageMax: 65 },
      });
      const ad = (adsetId: string, name: string) =>
        campaigns.create(account, 'ad', { adsetId, creativeId: `v-${name.replace(' ', '-')}`, name, status: 'ACTIVE' });
      const ads = [await ad(us.id, 'US one'), await ad(us.id, 'US two'), await ad(de.id, 'DE one')];
      return { adAccountId, advertiserId: advertiser.advertiser_id, campaigns, account, campaign, adsets: { us, de }, ads };
    }

    const query = (params: Record<string, string>) => new URLSearchParams(params).toString();
    const tree = (params: Record<string, string>) => t.app.api.get(`/ads/tree?${query(params)}`, { token: t.owner.key });

    it('GET /ads/tree answers the campaign with its ad groups and, in each, its ads; deleted ones only when asked', async () => {
      const made = await tiktokTree();
      const read = await tree({ adAccountId: made.adAccountId, campaignId: made.campaign.id });
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body.campaign).to.include({ id: made.campaign.id, level: 'campaign', platform: 'short_video_ads' });
      const shape = (body: { adsets: Array<{ adset: { name: string }; ads: Array<{ name: string }> }> }) =>
        body.adsets.map(({ adset, ads }) => [adset.name, ads.map((ad) => ad.name)]);
      expect(shape(read.body)).to.deep.equal([
        ['DE', ['DE one']],
        ['US', ['US two', 'US one']],
      ]);

      await made.campaigns.delete(made.account, 'ad', made.ads[1]!.id);
      expect(shape((await tree({ adAccountId: made.adAccountId, campaignId: made.campaign.id })).body)).to.deep.equal([
        ['DE', ['DE one']],
        ['US', ['US one']],
      ]);
      const all = await tree({ adAccountId: made.adAccountId, campaignId: made.campaign.id, includeDeleted: 'true' });
      expect(shape(all.body)).to.deep.equal([
        ['DE', ['DE one']],
        ['US', ['US two', 'US one']],
      ]);
      expect(all.body.adsets[1].ads[0]).to.include({ status: 'DELETED', platformStatus: 'AD_STATUS_DELETE' });

      const missing = await tree({ adAccountId: made.adAccountId, campaignId: made.adsets.us.id });
      expect(missing.status).to.equal(404);
    });

    it('GET /ads/tree gives each object the figures GET /ads/insights gives it over the period asked', async () => {
      const made = await tiktokTree();
      const read = await tree({ adAccountId: made.adAccountId, campaignId: made.campaign.id, datePreset: 'last_14d' });
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body).to.include({ figuresPeriod: 'last_14d', figuresUnavailable: null });
      await expectTreeFiguresAsInsights(t, made.adAccountId, read.body, 'last_14d');
    });

    it('POST /ads/status pauses up to 50 objects with an outcome for each: one deleted or unknown fails alone', async () => {
      const made = await tiktokTree();
      await made.campaigns.delete(made.account, 'ad', made.ads[2]!.id);
      const paused = await t.app.api.post('/ads/status', {
        token: t.owner.key,
        body: {
          adAccountId: made.adAccountId,
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
        // Paused itself, in an ad group paused: the parent is what TikTok's secondary status names.
        [made.ads[0]!.id, 'succeeded', ['PAUSED', 'ADSET_PAUSED'], null],
      ]);
      const platform = await shortVideoAds.onPlatform(made.advertiserId);
      expect(platform.adgroups.map((g) => [g.adgroup_name, g.operation_status])).to.have.deep.members([
        ['US', 'DISABLE'],
        ['DE', 'ENABLE'],
      ]);

      const resumed = await t.app.api.post('/ads/status', {
        token: t.owner.key,
        body: { adAccountId: made.adAccountId, status: 'ACTIVE', objects: [{ objectId: made.adsets.us.id, level: 'adset' }] },
      });
      expect(resumed.body.results[0]).to.deep.include({ outcome: 'succeeded', error: null });
      expect(resumed.body.results[0].object).to.include({ status: 'ACTIVE', platformStatus: 'ADGROUP_STATUS_DELIVERY_OK' });

      const tooMany = await t.app.api.post('/ads/status', {
        token: t.owner.key,
        body: {
          adAccountId: made.adAccountId,
          status: 'PAUSED',
          objects: Array.from({ length: 51 }, (_, i) => ({ objectId: String(1800000000000000000n + BigInt(i)), level: 'ad' })),
        },
      });
      expect(tooMany.status).to.equal(400);
    });

    it('POST /ads/status: a token revoked part way fails the call as a whole (409), as every object after would fail', async () => {
      const made = await tiktokTree();
      await shortVideoAds.revokeToken([made.advertiserId]);
      const refused = await t.app.api.post('/ads/status', {
        token: t.owner.key,
        body: { adAccountId: made.adAccountId, status: 'PAUSED', objects: [{ objectId: made.campaign.id, level: 'campaign' }] },
      });
      expect(refused.status).to.equal(409);
      expect(refused.body.code).to.equal('account_not_connected');
    });

    it('POST /ads/copies copies a campaign with its ad groups and ads, paused, named as asked; a retry with the key makes none twice', async () => {
      const made = await tiktokTree();
      const body = { adAccountId: made.adAccountId, objectId: made.campaign.id, level: 'campaign', name: 'Winter blend - B' };
      const headers = { 'Idempotency-Key': 'copy-winter-blend' };
      const copied = await t.app.api.post('/ads/copies', { token: t.owner.key, body, headers });
      expect(copied.status, JSON.stringify(copied.body)).to.equal(201);
      expect(copied.body.object).to.include({ level: 'campaign', name: 'Winter blend - B', status: 'PAUSED' });
      expect(copied.body.copies.map((c: { level: string; sourceId: string }) => [c.level, c.sourceId])).to.deep.equal([
        ['campaign', made.campaign.id],
        ['adset', made.adsets.de.id],
        ['ad', made.ads[2]!.id],
        ['adset', made.adsets.us.id],
        ['ad', made.ads[1]!.id],
        ['ad', made.ads[0]!.id],
      ]);
      const again = await t.app.api.post('/ads/copies', { token: t.owner.key, body, headers });
      expect(again.body.copies).to.deep.equal(copied.body.copies);

      const platform = await shortVideoAds.onPlatform(made.advertiserId);
      expect(platform.campaigns.map((c) => c.campaign_name).sort()).to.deep.equal(['Winter blend', 'Winter blend - B']);
      expect(platform.adgroups).to.have.length(4);
      expect(platform.ads).to.have.length(6);
      const copyTree = await tree({ adAccountId: made.adAccountId, campaignId: copied.body.object.id });
      expect(
        copyTree.body.adsets.map(
          ({
            adset,
            ads,
          }: {
            adset: { name: string; status: string; dailyBudget: number };
            ads: Array<{ name: string; creativeId: string }>;
          }) => [adset.name, adset.status, adset.dailyBudget, ads.map((ad) => [ad.name, ad.creativeId])],
        ),
      ).to.have.deep.members([
        ['DE', 'PAUSED', 2500, [['DE one', 'v-DE-one']]],
        [
          'US',
          'PAUSED',
          2500,
          [
            ['US one', 'v-US-one'],
            ['US two', 'v-US-two'],
          ],
        ],
      ]);
    });

    it('POST /ads/copies copies an ad group alone into another campaign, and an ad into another ad group; an unknown object is 404', async () => {
      const made = await tiktokTree();
      const adset = await t.app.api.post('/ads/copies', {
        token: t.owner.key,
        body: { adAccountId: made.adAccountId, objectId: made.adsets.us.id, level: 'adset', deep: false, status: 'ACTIVE' },
      });
      expect(adset.status, JSON.stringify(adset.body)).to.equal(201);
      expect(adset.body.object).to.include({ name: 'US - Copy', status: 'ACTIVE', campaignId: made.campaign.id });
      expect(adset.body.copies).to.have.length(1);
      const ad = await t.app.api.post('/ads/copies', {
        token: t.owner.key,
        body: { adAccountId: made.adAccountId, objectId: made.ads[2]!.id, level: 'ad', adsetId: adset.body.object.id },
      });
      expect(ad.body.object).to.include({ adsetId: adset.body.object.id, name: 'DE one - Copy', creativeId: 'v-DE-one', status: 'PAUSED' });
      const unknown = await t.app.api.post('/ads/copies', {
        token: t.owner.key,
        body: { adAccountId: made.adAccountId, objectId: '1799999999999999999', level: 'ad' },
      });
      expect(unknown.status).to.equal(404);
    });

    it('POST /ads/copies: a copy whose answer was lost is found on the platform by the retry with the key, not made again', async () => {
      const made = await tiktokTree();
      await shortVideoAds.loseNext();
      const request = {
        token: t.owner.key,
        body: { adAccountId: made.adAccountId, objectId: made.adsets.de.id, level: 'adset' },
        headers: { 'Idempotency-Key': 'copy-de' },
      };
      const lost = await t.app.api.post('/ads/copies', request);
      expect(lost.status).to.equal(502);
      const copied = await t.app.api.post('/ads/copies', request);
      expect(copied.status, JSON.stringify(copied.body)).to.equal(201);
      expect(copied.body.copies.map((c: { level: string }) => c.level)).to.deep.equal(['adset', 'ad']);
      const platform = await shortVideoAds.onPlatform(made.advertiserId);
      expect(platform.adgroups.filter((g) => g.adgroup_name === 'DE - Copy')).to.have.length(1);
      expect(platform.ads.filter((a) => a.ad_name === 'DE one')).to.have.length(2);
    });
  },
);
