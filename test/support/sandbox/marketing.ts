import { expect } from 'chai';
import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';
import { People } from './people.js';
import { connectAdAccounts, pendingConnection, SocialNetworkPeople } from './social-network.js';

export interface AdLibraries {
  images: Array<{ hash: string; filename: string }>;
  videos: Array<{ id: string; title: string | null; status: 'processing' | 'ready' | 'error' }>;
}

/** The Marketing API's side of the social network: the ad accounts' media libraries and what happens to them. */
export class MarketingPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'social_network');
  }

  /** How long the ad account's next videos process, in seconds; null: until `finishVideo`. */
  async videoProcessing(adAccountId: string, seconds: number | null): Promise<void> {
    await this.post('ad-video-processing', { adAccountId, seconds });
  }

  /** The platform finishes processing a video: `ready`, or an `error`. */
  async finishVideo(videoId: string, status: 'ready' | 'error' = 'ready'): Promise<void> {
    await this.post(`ad-videos/${videoId}/finish`, { status });
  }

  /** The ad account's next upload to `edge` is done, then its answer is lost. */
  async loseAnswer(adAccountId: string, edge: 'adimages' | 'advideos'): Promise<void> {
    await this.post('ad-media-lost-answer', { adAccountId, edge });
  }

  /** The ad account's status as its owner's platform sets it: 1 active, 2 disabled, 3 unsettled, 101 closed. */
  async accountStatus(adAccountId: string, status: number): Promise<void> {
    await this.post('ad-account-settings', { adAccountId, status });
  }

  /** The ad account's next create on `edge` (`campaigns`, `adsets`, `ads`, `adcreatives`) is made, then its answer is lost. */
  async loseCreateAnswer(adAccountId: string, edge: string): Promise<void> {
    await this.post('marketing-faults', { adAccountId, faults: [{ kind: 'lose_answer', edge }] });
  }

  /** The ad account's campaigns, ad sets, ads and creatives as the platform keeps them. */
  async adObjects(adAccountId: string): Promise<Array<{ id: string; kind: string; status: string; fields: Record<string, unknown> }>> {
    return (await this.get('ad-objects', { adAccountId })).objects;
  }

  /** A reviewer approves the ad, or disapproves it with `feedback`: the `in_process_ad_objects` webhook tells its new status. */
  review(adId: string, decision: 'approve' | 'disapprove', feedback?: string): Promise<{ effectiveStatus: string; statusName: string }> {
    return this.post(`ads/${adId}/review`, { decision, ...(feedback ? { feedback } : {}) });
  }

  /** The platform finds a delivery problem on an object: the `with_issues_ad_objects` webhook. */
  raiseIssue(objectId: string, issue: { error_code?: number; error_summary?: string; error_message?: string } = {}) {
    return this.post<{ issue: Record<string, unknown> }>(`ad-objects/${objectId}/issue`, issue);
  }

  /** The platform publishes a recommendation about some of the ad account's objects: the `ad_recommendations` webhook. */
  recommend(adAccountId: string, objectIds: string[], type = 'AUDIENCE_EXPANSION') {
    return this.post<{ recommendation: Record<string, unknown>; deliveries: Array<{ url: string; status: number }> }>(
      'ad-recommendations',
      { adAccountId, objectIds, type },
    );
  }

  /** The ad account's next `ad_account` webhooks are sent twice (`duplicate_webhooks`), or those of the next `count` changes held until released (`hold_webhooks`). */
  async failWebhooks(
    adAccountId: string,
    faults: Array<{ kind: 'duplicate_webhooks' } | { kind: 'hold_webhooks'; count: number }>,
  ): Promise<void> {
    await this.post('ad-webhook-faults', { adAccountId, faults });
  }

  /** The newest held change is sent now in a webhook; with `together`, all of them in one webhook, newest first. */
  releaseWebhooks(adAccountId: string, together = false): Promise<{ deliveries: Array<{ status: number }>; stillHeld: number }> {
    return this.post('ad-webhooks/release', { adAccountId, together });
  }

  /** What the ad account's libraries hold. */
  onPlatform(adAccountId: string): Promise<AdLibraries> {
    return this.get('ad-media', { adAccountId });
  }
}

export interface ConnectedAdAccount {
  adAccountId: string;
  platformAdAccountId: string;
  pageId: string;
  userId: string;
}

/** A new person's ad account (and a page it may advertise for), the ad account connected to the owner's profile. */
export async function connectNewAdAccount(app: TestApp, owner: TestOwner): Promise<ConnectedAdAccount> {
  const person = await new SocialNetworkPeople(() => app).newPerson({ pages: 1, adAccounts: 1 });
  const connected = await connectAdAccounts(app, owner, await pendingConnection(app, owner), person.adAccountIds);
  expect(connected.status, connected.text).to.equal(201);
  return {
    adAccountId: connected.body.data[0].id,
    platformAdAccountId: person.adAccountIds[0]!,
    pageId: person.pageIds[0]!,
    userId: person.userId,
  };
}

/** One Graph call as the person who connected the ad account (with their token): the sandbox's answer. */
async function graphPost(app: TestApp, adAccountId: string, path: string, form: Record<string, string>): Promise<{ id: string }> {
  const row = await app.services.db('adAccounts').where({ id: adAccountId }).first();
  const { accessToken } = JSON.parse(app.services.secrets.open(row.credentialsCiphertext)) as { accessToken: string };
  const response = await fetch(`${app.services.sandboxUrl}/social_network/graph/v25.0/${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const answer = (await response.json()) as { id: string };
  expect(response.status, JSON.stringify(answer)).to.equal(200);
  return answer;
}

/**
 * An active campaign, ad set and ad on the platform for the connected ad account, made by the person in the ads
 * manager (not through the service): the ad waits in review. Its id.
 */
export async function adInReview(app: TestApp, owner: TestOwner, ad: ConnectedAdAccount): Promise<string> {
  const post = await new SocialNetworkPeople(() => app).postInApp(ad.pageId, 'Winter blend');
  const creative = await app.api.post('/ads/adcreatives', {
    token: owner.key,
    body: { adAccountId: ad.adAccountId, name: 'Winter', objectStoryId: post.id },
  });
  expect(creative.status, creative.text).to.equal(201);
  const act = ad.platformAdAccountId;
  const campaign = await graphPost(app, ad.adAccountId, `${act}/campaigns`, {
    name: 'Winter',
    objective: 'OUTCOME_TRAFFIC',
    status: 'ACTIVE',
    special_ad_categories: '[]',
    is_adset_budget_sharing_enabled: 'false',
  });
  const adset = await graphPost(app, ad.adAccountId, `${act}/adsets`, {
    name: 'Winter US',
    campaign_id: campaign.id,
    daily_budget: '5000',
    billing_event: 'IMPRESSIONS',
    optimization_goal: 'LINK_CLICKS',
    targeting: JSON.stringify({ geo_locations: { countries: ['US'] } }),
    status: 'ACTIVE',
  });
  const made = await graphPost(app, ad.adAccountId, `${act}/ads`, {
    name: 'Winter ad',
    adset_id: adset.id,
    creative: JSON.stringify({ creative_id: creative.body.id }),
    status: 'ACTIVE',
  });
  return made.id;
}
