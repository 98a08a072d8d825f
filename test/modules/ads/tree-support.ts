import { expect } from 'chai';
import type { ApiTest } from '../../support/harness.js';
import { connectAdAccounts, pendingConnection } from '../../support/sandbox/social-network.js';

/** A social network ad account connected to the test's owner: our id, the platform's, and the token the service keeps. */
export interface TreeAccount {
  adAccountId: string;
  platformId: string;
  token: string;
  /** A page of the same person, for creatives. */
  pageId: string;
}

/** An ad account's settings as its owner sets them on the platform (before it is connected: its currency is read then). */
export interface AdAccountSettings {
  currency?: string;
  status?: number;
  defaultDsaBeneficiary?: string | null;
  defaultDsaPayor?: string | null;
}

/**
 * The campaign tree's side of the social network sandbox for a test: ad accounts connected by the whole dance, the
 * Marketing API's controls (settings, faults, what an ad account holds) and the Graph itself, asked with the token
 * the service keeps, to see the platform's own refusal of what the service refuses first.
 */
export function marketing(t: ApiTest) {
  const control = async (path: string, body?: unknown) => {
    const response = await fetch(`${t.app.services.sandboxUrl}/_sandbox/social_network/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as any;
    expect(response.status, `${path}: ${JSON.stringify(answer)}`).to.be.below(300);
    return answer;
  };

  const graph = async (account: TreeAccount, method: 'GET' | 'POST', path: string, form: Record<string, unknown> = {}) => {
    const fields = new URLSearchParams(
      Object.entries(form).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
    );
    const url = `${t.app.services.sandboxUrl}/social_network/graph/v26.0/${path}`;
    const response = await fetch(method === 'GET' ? `${url}?${fields}` : url, {
      method,
      headers: {
        Authorization: `Bearer ${account.token}`,
        ...(method === 'POST' ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(method === 'POST' ? { body: fields.toString() } : {}),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  const post = async (path: string, body: unknown) => {
    const made = await t.app.api.post(path, { token: t.owner.key, body });
    expect(made.status, `${path}: ${JSON.stringify(made.body)}`).to.equal(201);
    return made.body as { id: string; name: string };
  };

  return {
    /** A new person's ad account with these settings, connected to the owner's profile. */
    async connect(settings: AdAccountSettings = {}): Promise<TreeAccount> {
      const person = await t.sandbox.socialNetwork.newPerson({ pages: 1, adAccounts: 1 });
      const platformId = person.adAccountIds[0]!;
      if (Object.keys(settings).length > 0) await control('ad-account-settings', { adAccountId: platformId, ...settings });
      const connected = await connectAdAccounts(t.app, t.owner, await pendingConnection(t.app, t.owner), [platformId]);
      expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
      const adAccountId = connected.body.data[0].id as string;
      const row = await t.app.services.db('adAccounts').where({ id: adAccountId }).first();
      const { accessToken } = JSON.parse(t.app.services.secrets.open(row.credentialsCiphertext)) as { accessToken: string };
      return { adAccountId, platformId, token: accessToken, pageId: person.pageIds[0]! };
    },
    settings: (account: TreeAccount, settings: AdAccountSettings) =>
      control('ad-account-settings', { adAccountId: account.platformId, ...settings }),
    /** The ad account's next create calls meet these faults (`lose_answer`: made, then the connection drops). */
    fail: (account: TreeAccount, faults: Array<{ kind: 'lose_answer'; edge?: string }>) =>
      control('marketing-faults', { adAccountId: account.platformId, faults }),
    /** Everything the ad account holds on the platform, deleted objects too. */
    async onPlatform(account: TreeAccount, kind?: string): Promise<any[]> {
      const { objects } = await control(`ad-objects?adAccountId=${account.platformId}`);
      return (objects as any[]).filter((object) => !kind || object.kind === kind);
    },
    graph,
    /** A creative made on the platform (creatives have their own operation; the tree only uses them). */
    async creative(account: TreeAccount): Promise<string> {
      const made = await graph(account, 'POST', `${account.platformId}/adcreatives`, {
        name: 'Creative',
        object_story_spec: { page_id: account.pageId, link_data: { link: 'https://acme.example/winter', message: 'Winter blend' } },
      });
      expect(made.status, JSON.stringify(made.body)).to.equal(200);
      return made.body.id;
    },
    /**
     * A campaign tree made through our operations on a new ad account: an active campaign, two ad sets (US, CA)
     * and three ads (two in US, one in CA), in that order, each shown by one creative.
     */
    async tree() {
      const account = await this.connect();
      const campaign = await post('/ads/campaigns', campaignBody(account, { status: 'ACTIVE' }));
      const adset = (name: string, country: string) =>
        post(
          '/ads/adsets',
          adSetBody(account, campaign.id, { name, status: 'ACTIVE', targeting: { geoLocations: { countries: [country] } } }),
        );
      const adsets = { us: await adset('US', 'US'), ca: await adset('CA', 'CA') };
      const creativeId = await this.creative(account);
      const ad = (adsetId: string, name: string) =>
        post('/ads/ads', { adAccountId: account.adAccountId, adsetId, creativeId, name, status: 'ACTIVE' });
      const ads = [await ad(adsets.us.id, 'US one'), await ad(adsets.us.id, 'US two'), await ad(adsets.ca.id, 'CA one')];
      return { account, campaign, adsets, ads, creativeId };
    },
  };
}

/** A campaign body that the platform takes, with budgets per ad set. */
export const campaignBody = (account: TreeAccount, extra: Record<string, unknown> = {}) => ({
  adAccountId: account.adAccountId,
  name: 'Winter blend',
  objective: 'OUTCOME_TRAFFIC',
  ...extra,
});

/** An ad set body that the platform takes under a campaign without budget, outside the EU. */
export const adSetBody = (account: TreeAccount, campaignId: string, extra: Record<string, unknown> = {}) => ({
  adAccountId: account.adAccountId,
  campaignId,
  name: 'US coffee lovers',
  optimizationGoal: 'LINK_CLICKS',
  dailyBudget: 2000,
  targeting: { geoLocations: { countries: ['US'] } },
  ...extra,
});

type Figured = { id: string; figures: { impressions: number; clicks: number; spend: number; currency: string; ctr: number | null } | null };
/** A `GET /ads/tree` body, as far as its figures go. */
/** `POST /ads/status`'s answer as one line per object: its id, outcome, status and effective status, error code. */
export function statusOutcomes(body: {
  results: {
    objectId: string;
    outcome: string;
    object: { status: string; effectiveStatus: string } | null;
    error: { code: string } | null;
  }[];
}) {
  return body.results.map((r) => [r.objectId, r.outcome, r.object && [r.object.status, r.object.effectiveStatus], r.error?.code ?? null]);
}

export interface TreeFiguresBody {
  campaign: Figured;
  adsets: Array<{ adset: Figured; ads: Figured[] }>;
}

/** Each object of a tree read carries what `GET /ads/insights` answers for it over the same period. */
export async function expectTreeFiguresAsInsights(t: ApiTest, adAccountId: string, tree: TreeFiguresBody, datePreset: string) {
  const insights = async (object: Figured, objectLevel: string) => {
    const params = { adAccountId, objectId: object.id, objectLevel, datePreset, fields: 'impressions,clicks,spend,ctr' };
    const read = await t.app.api.get(`/ads/insights?${new URLSearchParams(params)}`, { token: t.owner.key });
    expect(read.status, JSON.stringify(read.body)).to.equal(200);
    const [row] = read.body.data as Array<{ impressions: number; clicks: number; spend: number; ctr: number }>;
    const { ctr, ...figures } = object.figures!;
    expect(figures, `${objectLevel} ${object.id}`).to.deep.equal({
      impressions: row!.impressions,
      clicks: row!.clicks,
      spend: row!.spend,
      currency: read.body.currency,
    });
    expect(ctr).to.be.closeTo(row!.ctr, 0.01);
  };
  expect(tree.campaign.figures?.impressions).to.be.above(0);
  await insights(tree.campaign, 'campaign');
  for (const { adset, ads } of tree.adsets) {
    await insights(adset, 'adset');
    for (const ad of ads) await insights(ad, 'ad');
  }
}
