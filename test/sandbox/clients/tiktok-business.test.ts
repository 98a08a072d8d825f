import { createHash } from 'node:crypto';
import { expect } from 'chai';
import {
  AccountManagementApi,
  AdApi,
  AdgroupApi,
  AudienceApi,
  AuthenticationApi,
  CampaignCreationApi,
  IdentityApi,
  ReportingApi,
  ToolApi,
} from 'tiktok-business-api-sdk-official';
import { SANDBOX_ADS_APP } from '../../../src/sandbox/short-video-ads/demo.js';
import { until } from '../../support/wait.js';
import { sandboxForFile } from './sandbox.js';
import { businessApiOf, sdk } from './tiktok-business.js';

/**
 * The Business API calls our short_video_ads adapter makes (src/platforms/short-video-ads/), through TikTok's
 * Business SDK (tiktok-business-api-sdk-official), pointed at the sandbox with `ApiClient.instance.basePath` (its
 * paths carry `/open_api/v1.3`): the token, the advertisers, the identity and regions an ad group needs, a campaign,
 * an ad group and an ad made, read, changed and switched, reports read at once and as a task, audiences (a file, a
 * customer list, a lookalike, a rule-based one). The SDK has no call for lead forms, a report task's file, the
 * audience size estimate nor a rule-based audience's update: those are plain HTTP as TikTok documents them.
 */
describe('sandbox TikTok Business API (campaign tree, reports, audiences) — through tiktok-business-api-sdk-official', () => {
  const sandbox = sandboxForFile();
  const business = businessApiOf(sandbox);
  const { plain } = business;
  let token = '';
  let advertiserId = '';
  before(() => {
    token = business.token();
    advertiserId = business.advertiserId();
  });

  it('oauth2AdvertiserGet and advertiserInfo — the advertisers the token reaches, with the fields asked', async () => {
    const granted = await sdk((done) =>
      new AuthenticationApi().oauth2AdvertiserGet(SANDBOX_ADS_APP.appId, SANDBOX_ADS_APP.secret, token, done),
    );
    expect(granted.list.map((one: { advertiser_id: string }) => one.advertiser_id)).to.include(advertiserId);
    const info = await sdk((done) =>
      new AccountManagementApi().advertiserInfo([advertiserId], token, { fields: ['name', 'currency', 'timezone', 'status'] }, done),
    );
    expect(info.list[0]).to.have.all.keys('name', 'currency', 'timezone', 'status');
  });

  it('identityGet and toolRegion — the custom identity an ad shows and the countries an ad group targets', async () => {
    const identities = await sdk((done) => new IdentityApi().identityGet(advertiserId, token, { identity_type: 'CUSTOMIZED_USER' }, done));
    expect(identities.identity_list[0]).to.include.keys('identity_id', 'identity_type', 'display_name');
    const regions = await sdk((done) =>
      new ToolApi().toolRegion(advertiserId, ['PLACEMENT_TIKTOK'], 'TRAFFIC', token, { level_range: 'TO_COUNTRY' }, done),
    );
    expect(
      regions.region_info.some(
        (region: { region_code: string; level: string }) => region.region_code === 'US' && region.level === 'COUNTRY',
      ),
    ).to.be.true;
  });

  it('toolInterestCategory and toolActionCategory — the targeting tools', async () => {
    const interests = await sdk((done) => new ToolApi().toolInterestCategory(advertiserId, token, {}, done));
    expect(interests.interest_categories.length).to.be.greaterThan(0);
    const actions = await sdk((done) => new ToolApi().toolActionCategory(advertiserId, token, {}, done));
    expect(actions.action_categories.length).to.be.greaterThan(0);
  });

  it('makes a campaign, an ad group and an ad; reads, changes and switches them', async () => {
    const campaigns = new CampaignCreationApi();
    const adgroups = new AdgroupApi();
    const ads = new AdApi();
    const campaign = await sdk((done) =>
      campaigns.campaignCreate(
        token,
        {
          body: {
            advertiser_id: advertiserId,
            campaign_name: 'SDK campaign',
            objective_type: 'TRAFFIC',
            operation_status: 'DISABLE',
            special_industries: [],
            budget_mode: 'BUDGET_MODE_INFINITE',
          },
        },
        done,
      ),
    );
    expect(campaign.campaign_id).to.match(/^\d+$/);
    const regions = await sdk((done) =>
      new ToolApi().toolRegion(advertiserId, ['PLACEMENT_TIKTOK'], 'TRAFFIC', token, { level_range: 'TO_COUNTRY' }, done),
    );
    const us = regions.region_info.find((region: { region_code: string }) => region.region_code === 'US').location_id;
    const adgroup = await sdk((done) =>
      adgroups.adgroupCreate(
        token,
        {
          body: {
            advertiser_id: advertiserId,
            campaign_id: campaign.campaign_id,
            adgroup_name: 'SDK ad group',
            operation_status: 'DISABLE',
            placement_type: 'PLACEMENT_TYPE_AUTOMATIC',
            location_ids: [us],
            gender: 'GENDER_UNLIMITED',
            budget_mode: 'BUDGET_MODE_DAY',
            budget: 50,
            schedule_type: 'SCHEDULE_FROM_NOW',
            schedule_start_time: new Date(Date.now() + 60_000).toISOString().slice(0, 19).replace('T', ' '),
            optimization_goal: 'CLICK',
            billing_event: 'CPC',
            bid_type: 'BID_TYPE_NO_BID',
          },
        },
        done,
      ),
    );
    expect(adgroup.adgroup_id).to.match(/^\d+$/);
    const identity = (await sdk((done) => new IdentityApi().identityGet(advertiserId, token, { identity_type: 'CUSTOMIZED_USER' }, done)))
      .identity_list[0];
    const ad = await sdk((done) =>
      ads.adCreate(
        token,
        {
          body: {
            advertiser_id: advertiserId,
            adgroup_id: adgroup.adgroup_id,
            operation_status: 'DISABLE',
            creatives: [
              {
                ad_name: 'SDK ad',
                ad_format: 'SINGLE_VIDEO',
                video_id: 'v10033g50000sdkvideo',
                identity_id: identity.identity_id,
                identity_type: 'CUSTOMIZED_USER',
                ad_text: 'SDK ad',
                utm_params: [{ key: 'utm_source', value: 'tiktok' }],
              },
            ],
          },
        },
        done,
      ),
    );
    expect(ad.ad_ids).to.have.length(1);
    const adId = String(ad.ad_ids[0]);

    const listed = await sdk((done) =>
      campaigns.campaignGet(advertiserId, token, { filtering: { campaign_ids: [campaign.campaign_id] }, page: 1, page_size: 10 }, done),
    );
    expect(listed.list[0]).to.include({ campaign_id: campaign.campaign_id, campaign_name: 'SDK campaign', operation_status: 'DISABLE' });
    expect(listed.page_info).to.include({ page: 1, total_number: 1 });
    const groups = await sdk((done) =>
      adgroups.adgroupGet(
        advertiserId,
        token,
        { filtering: { campaign_ids: [campaign.campaign_id] }, fields: ['adgroup_id', 'adgroup_name', 'budget'] },
        done,
      ),
    );
    expect(groups.list).to.deep.equal([{ adgroup_id: adgroup.adgroup_id, adgroup_name: 'SDK ad group', budget: 50 }]);
    const read = await sdk((done) => ads.adGet(advertiserId, token, { filtering: { adgroup_ids: [adgroup.adgroup_id] } }, done));
    expect(read.list[0]).to.include({ ad_id: adId, ad_name: 'SDK ad', identity_type: 'CUSTOMIZED_USER', video_id: 'v10033g50000sdkvideo' });

    await sdk((done) =>
      campaigns.campaignUpdate(
        token,
        { body: { advertiser_id: advertiserId, campaign_id: campaign.campaign_id, campaign_name: 'SDK campaign, renamed' } },
        done,
      ),
    );
    await sdk((done) =>
      adgroups.adgroupUpdate(token, { body: { advertiser_id: advertiserId, adgroup_id: adgroup.adgroup_id, budget: 60 } }, done),
    );
    await sdk((done) =>
      ads.adStatusUpdate(token, { body: { advertiser_id: advertiserId, ad_ids: [adId], operation_status: 'ENABLE' } }, done),
    );
    await sdk((done) =>
      adgroups.adgroupStatusUpdate(
        token,
        { body: { advertiser_id: advertiserId, adgroup_ids: [adgroup.adgroup_id], operation_status: 'ENABLE' } },
        done,
      ),
    );
    await sdk((done) =>
      campaigns.campaignStatusUpdate(
        token,
        { body: { advertiser_id: advertiserId, campaign_ids: [campaign.campaign_id], operation_status: 'ENABLE' } },
        done,
      ),
    );
    const changed = await sdk((done) =>
      campaigns.campaignGet(advertiserId, token, { filtering: { campaign_ids: [campaign.campaign_id] } }, done),
    );
    expect(changed.list[0]).to.include({ campaign_name: 'SDK campaign, renamed', operation_status: 'ENABLE' });
    const regrouped = await sdk((done) =>
      adgroups.adgroupGet(advertiserId, token, { filtering: { adgroup_ids: [adgroup.adgroup_id] } }, done),
    );
    expect(regrouped.list[0]).to.include({ budget: 60, operation_status: 'ENABLE' });
  });

  it('reportIntegratedGet and a report task — daily ad figures, at once and as a file', async () => {
    const end = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 6 * 86_400_000).toISOString().slice(0, 10);
    const query = {
      advertiser_id: advertiserId,
      data_level: 'AUCTION_AD',
      dimensions: ['ad_id', 'stat_time_day'],
      metrics: ['impressions', 'clicks', 'spend', 'ad_name'],
      start_date: start,
      end_date: end,
    };
    const report = await sdk((done) => new ReportingApi().reportIntegratedGet('BASIC', token, { ...query, page: 1, page_size: 10 }, done));
    expect(report).to.include.keys('list', 'page_info');
    const task = await sdk((done) => new ReportingApi().reportTaskCreate(token, { body: { ...query, report_type: 'BASIC' } }, done));
    expect(String(task.task_id)).to.match(/^\d+$/);
    await until(() => sdk((done) => new ReportingApi().reportTaskCheck(String(task.task_id), advertiserId, token, done)), {
      done: (state) => state.status === 'SUCCESS',
      what: 'the report task to succeed',
    });
    const file = await fetch(
      `${sandbox.url()}/short_video_ads/open_api/v1.3/report/task/download/?advertiser_id=${advertiserId}&task_id=${task.task_id}`,
      {
        headers: { 'Access-Token': token },
      },
    );
    expect(file.status).to.equal(200);
    expect((await file.text()).split('\n')[0]).to.include('impressions');
  });

  it('audiences — a customer list from a file, changed and read, a lookalike and a rule-based one, deleted', async () => {
    const audiences = new AudienceApi();
    const hashed = (email: string) => createHash('sha256').update(email).digest('hex');
    const text = ['EMAIL_SHA256', ...Array.from({ length: 1200 }, (_, i) => hashed(`person${i}@example.com`))].join('\n');
    const uploaded = await sdk((done) =>
      audiences.dmpCustomAudienceFileUpload(
        token,
        {
          advertiser_id: advertiserId,
          calculate_type: 'MULTIPLE_TYPES',
          file: Buffer.from(text),
          file_signature: createHash('md5').update(text).digest('hex'),
        },
        done,
      ),
    );
    expect(uploaded.file_path).to.be.a('string');
    const created = await sdk((done) =>
      audiences.dmpCustomAudienceCreate(
        token,
        {
          body: {
            advertiser_id: advertiserId,
            custom_audience_name: 'SDK customers',
            file_paths: [uploaded.file_path],
            calculate_type: 'MULTIPLE_TYPES',
          },
        },
        done,
      ),
    );
    const audienceId = String(created.custom_audience_id);
    expect(audienceId).to.match(/^\d+$/);
    await sdk((done) =>
      audiences.dmpCustomAudienceUpdate(
        token,
        { body: { advertiser_id: advertiserId, custom_audience_id: audienceId, custom_audience_name: 'SDK customers, renamed' } },
        done,
      ),
    );
    const details = await sdk((done) => audiences.dmpCustomAudienceGet(advertiserId, [audienceId], token, {}, done));
    expect(details.list[0].audience_details).to.include({ audience_id: audienceId, name: 'SDK customers, renamed' });
    const page = await sdk((done) => audiences.dmpCustomAudienceList(advertiserId, token, { page: 1, page_size: 100 }, done));
    expect(page.list.map((one: { audience_id: string }) => one.audience_id)).to.include(audienceId);
    expect(page.page_info).to.include.keys('page', 'page_size', 'total_number', 'total_page');
    await fetch(`${sandbox.url()}/_sandbox/short_video_ads/audiences/${audienceId}/finish`, { method: 'POST' });
    const lookalike = await sdk((done) =>
      audiences.dmpCustomAudienceLookalikeCreate(
        token,
        {
          body: {
            advertiser_id: advertiserId,
            custom_audience_name: 'SDK lookalike',
            lookalike_spec: { source_audience_id: audienceId, location_ids: ['6252001'], audience_size: 'BALANCED', include_source: false },
          },
        },
        done,
      ),
    );
    expect(String(lookalike.custom_audience_id)).to.match(/^\d+$/);

    const rule = await sdk((done) =>
      audiences.dmpCustomAudienceRuleCreate(
        token,
        {
          body: {
            advertiser_id: advertiserId,
            custom_audience_name: 'SDK engaged',
            audience_type: 'ENGAGEMENT',
            rule_spec: {
              inclusion_rule_set: {
                operation: 'OR',
                rules: [{ event_source_ids: [advertiserId], retention_days: 30, filter_set: { operation: 'OR', filters: [] } }],
              },
            },
          },
        },
        done,
      ),
    );
    expect(String(rule.custom_audience_id)).to.match(/^\d+$/);
    const updated = await plain('/dmp/custom_audience/rule/update/', {
      method: 'POST',
      body: {
        advertiser_id: advertiserId,
        custom_audience_id: String(rule.custom_audience_id),
        rule_spec: {
          inclusion_rule_set: {
            operation: 'OR',
            rules: [{ event_source_ids: [advertiserId], retention_days: 60, filter_set: { operation: 'OR', filters: [] } }],
          },
        },
      },
    });
    expect(updated.code, updated.message).to.equal(0);

    await sdk((done) =>
      audiences.dmpCustomAudienceDelete(
        token,
        { body: { advertiser_id: advertiserId, custom_audience_ids: [String(rule.custom_audience_id)] } },
        done,
      ),
    );
    const gone = await sdk((done) => audiences.dmpCustomAudienceList(advertiserId, token, { page: 1, page_size: 100 }, done));
    expect(gone.list.map((one: { audience_id: string }) => one.audience_id)).not.to.include(String(rule.custom_audience_id));
  });

  it('the audience size estimate and lead forms — plain HTTP: the SDK has no call for them', async () => {
    const regions = await sdk((done) =>
      new ToolApi().toolRegion(advertiserId, ['PLACEMENT_TIKTOK'], 'TRAFFIC', token, { level_range: 'TO_COUNTRY' }, done),
    );
    const us = regions.region_info.find((region: { region_code: string }) => region.region_code === 'US').location_id;
    const estimate = await plain('/ad/audience_size/estimate/', {
      method: 'POST',
      body: {
        advertiser_id: advertiserId,
        objective_type: 'TRAFFIC',
        placement_type: 'PLACEMENT_TYPE_AUTOMATIC',
        optimization_goal: 'CLICK',
        location_ids: [us],
      },
    });
    expect(estimate.code, estimate.message).to.equal(0);
    expect(estimate.data.user_count).to.include.keys('lower_end', 'upper_end');
    const forms = await plain(
      `/page/get/?${new URLSearchParams({ advertiser_id: advertiserId, business_type: 'LEAD_GEN', page: '1', page_size: '10' })}`,
    );
    expect(forms.code, forms.message).to.equal(0);
    expect(forms.data).to.include.keys('list', 'page_info');
  });
});
