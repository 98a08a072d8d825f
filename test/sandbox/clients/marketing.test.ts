import { expect } from 'chai';
import { Ad, AdAccount, FacebookAdsApi } from 'facebook-nodejs-business-sdk';
import { DEMO_AD_ACCOUNTS, DEMO_PAGES, SANDBOX_APP } from '../../../src/sandbox/social-network/demo.js';
import { consent } from '../../support/sandbox/oauth.js';
import { sandboxForFile } from './sandbox.js';

const REDIRECT = 'https://app.example/ads/callback';
const ACCOUNT = DEMO_AD_ACCOUNTS[0]!;

/**
 * The Marketing API calls our social_network adapter makes for the campaign tree, through Meta's Business SDK
 * (facebook-nodejs-business-sdk), pointed at the sandbox by redefining `FacebookAdsApi.GRAPH` (a static getter):
 * a campaign, an ad set, a creative and an ad on the demo ad account, then the ad's insights. The SDK sends JSON
 * bodies, whose arrays and objects the sandbox takes as a form's JSON text (it took a JSON body's array as its
 * first item, and an object as "[object Object]").
 */
describe('sandbox Marketing API (campaign tree, insights) — through facebook-nodejs-business-sdk', () => {
  const sandbox = sandboxForFile();
  const graph = () => `${sandbox.url()}/social_network/graph`;

  before('point the SDK at the sandbox, and sign the demo person in with ads_management', async () => {
    Object.defineProperty(FacebookAdsApi, 'GRAPH', { get: () => graph(), configurable: true });
    const authorize = new URL(`${sandbox.url()}/social_network/www/v24.0/dialog/oauth`);
    authorize.search = new URLSearchParams({
      client_id: SANDBOX_APP.id,
      redirect_uri: REDIRECT,
      scope: 'ads_management,ads_read,pages_show_list',
      state: 's',
    }).toString();
    const code = (await consent(authorize, 'approve')).searchParams.get('code')!;
    const exchange = new URL(`${graph()}/v24.0/oauth/access_token`);
    exchange.search = new URLSearchParams({
      client_id: SANDBOX_APP.id,
      client_secret: SANDBOX_APP.secret,
      code,
      redirect_uri: REDIRECT,
    }).toString();
    FacebookAdsApi.init(((await (await fetch(exchange)).json()) as { access_token: string }).access_token, 'en_US', false);
  });

  it('creates a campaign, an ad set, a creative and an ad, and reads the ad back and its insights', async () => {
    const account = new AdAccount(ACCOUNT.id);
    const campaign = await account.createCampaign([], {
      name: 'SDK campaign',
      objective: 'OUTCOME_TRAFFIC',
      status: 'PAUSED',
      special_ad_categories: [],
      is_adset_budget_sharing_enabled: false,
    });
    expect(campaign.id).to.match(/^\d+$/);
    const adset = await account.createAdSet([], {
      name: 'SDK ad set',
      campaign_id: campaign.id,
      daily_budget: 2000,
      billing_event: 'IMPRESSIONS',
      optimization_goal: 'LINK_CLICKS',
      bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
      targeting: { geo_locations: { countries: ['US'] }, targeting_automation: { advantage_audience: 0 } },
      status: 'PAUSED',
    });
    expect(adset.id).to.match(/^\d+$/);
    const creative = await account.createAdCreative([], {
      name: 'SDK creative',
      object_story_spec: { page_id: DEMO_PAGES[0]!.id, link_data: { link: 'https://acme.example/winter', message: 'Winter blend' } },
    });
    expect(creative.id).to.match(/^\d+$/);
    const ad = await account.createAd([], { name: 'SDK ad', adset_id: adset.id, creative: { creative_id: creative.id }, status: 'PAUSED' });
    expect(ad.id).to.match(/^\d+$/);

    const read = await new Ad(ad.id).get(['name', 'adset_id', 'campaign_id', 'effective_status', 'creative']);
    expect(read._data).to.deep.include({ name: 'SDK ad', adset_id: adset.id, campaign_id: campaign.id, effective_status: 'PAUSED' });
    const listed = await account.getAds(['name'], {});
    expect(listed.map((one) => one.id)).to.include(ad.id);

    const insights = await new Ad(ad.id).getInsights(['impressions', 'clicks', 'spend'], { date_preset: 'last_7d', time_increment: 1 });
    expect(insights.length).to.be.at.least(1);
    expect(insights[0]!._data).to.include.keys('impressions', 'clicks', 'spend', 'date_start', 'date_stop');
  });
});
