import { expect } from 'chai';
import { adBoostSettings } from '../../../src/modules/ads/boost/settings.js';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { People } from '../../support/sandbox/people.js';
import { connectNewAdAccount, type ConnectedAdAccount, MarketingPeople } from '../../support/sandbox/marketing.js';

export type BoostEdge = 'campaigns' | 'adsets' | 'adcreatives' | 'ads';
/** The platform's edge of each step, in the order a boost makes them. */
export const EDGES: BoostEdge[] = ['campaigns', 'adsets', 'adcreatives', 'ads'];
/** The sandbox's kind of the object each edge makes. */
export const KIND_OF: Record<BoostEdge, string> = { campaigns: 'campaign', adsets: 'adset', adcreatives: 'adcreative', ads: 'ad' };

/** Boost settings of a test app: retries after a fifth of a second, short leases, `answerWithinSeconds` as given. */
export function testBoostSettings(answerWithinSeconds = 10) {
  return adBoostSettings({
    ADS_BOOST_ANSWER_WITHIN_SECONDS: String(answerWithinSeconds),
    ADS_BOOST_LEASE_SECONDS: '2',
    ADS_BOOST_RETRY_MS: '200',
  });
}

/** The Marketing API's side of boosting: a post's eligibility, and faults at a boost's steps. */
export class BoostPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'social_network');
  }

  /** The platform will not promote the post (its `promotion_status`). */
  async makeIneligible(postId: string, promotionStatus = 'ineligible'): Promise<void> {
    await this.post('boost-eligibility', { postId, eligible: false, promotionStatus });
  }

  /** The ad account's next creation on `edge` is refused, or has the person's token revoked there. */
  async fail(platformAdAccountId: string, edge: BoostEdge, kind: 'refuse' | 'revoke_token' = 'refuse', subcode?: number): Promise<void> {
    await this.post('boost-faults', { adAccountId: platformAdAccountId, faults: [{ kind, edge, ...(subcode ? { subcode } : {}) }] });
  }
}

/** A connected ad account and a post on its person's page, made in the app. */
export async function boostable(
  app: TestApp,
  owner: TestOwner,
  social: { postInApp(pageId: string, text: string): Promise<{ id: string }> },
) {
  const ad: ConnectedAdAccount = await connectNewAdAccount(app, owner);
  const post = await social.postInApp(ad.pageId, 'Our winter blend is back');
  return { ad, postId: post.id };
}

/** A boost body the platform takes: a daily budget for a week, in Germany. */
export const boostBody = (adAccountId: string, platformPostId: string, extra: Record<string, unknown> = {}) => ({
  adAccountId,
  platformPostId,
  dailyBudget: 1000,
  durationDays: 7,
  targeting: { geoLocations: { countries: ['US'] } },
  ...extra,
});

/** The ad account's objects on the platform by kind, with their configured status. */
export async function platformObjects(app: TestApp, platformAdAccountId: string) {
  const objects = await new MarketingPeople(() => app).adObjects(platformAdAccountId);
  const byKind = (kind: string) => objects.filter((object) => object.kind === kind);
  return { objects, byKind };
}

/** Every object the ad account holds on the platform is deleted (a boost rolled back leaves nothing). */
export async function expectNothingLeft(app: TestApp, platformAdAccountId: string): Promise<void> {
  const { objects } = await platformObjects(app, platformAdAccountId);
  expect(
    objects.filter((object) => object.status !== 'DELETED').map((object) => `${object.kind} ${object.id} ${object.status}`),
    'objects left on the platform',
  ).to.deep.equal([]);
}

/** One of each object on the platform, none deleted: a complete boost. */
export async function expectOneBoost(app: TestApp, platformAdAccountId: string): Promise<void> {
  const { objects } = await platformObjects(app, platformAdAccountId);
  expect(objects.map((object) => `${object.kind} ${object.status}`).sort()).to.deep.equal([
    'ad ACTIVE',
    'adcreative ACTIVE',
    'adset ACTIVE',
    'campaign ACTIVE',
  ]);
}
