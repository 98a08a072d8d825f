import { expect } from 'chai';
import type { TestApp } from '../../support/app.js';
import type { TestOwner } from '../../support/owners.js';
import { People } from '../../support/sandbox/people.js';
import { connectAdvertiser, ShortVideoAdsPeople } from '../../support/sandbox/short-video-ads.js';
import { connectAdAccounts, pendingConnection, SocialNetworkPeople } from '../../support/sandbox/social-network.js';

export interface ConnectedAdAccount {
  /** Ours (`adacc_…`). */
  adAccountId: string;
  /** The platform's (`act_…`). */
  platformAdAccountId: string;
}

/** A new person's ad account on the social network, connected to the owner's profile by the whole dance. */
export async function connectMetaAdAccount(app: TestApp, owner: TestOwner): Promise<ConnectedAdAccount> {
  const person = await new SocialNetworkPeople(() => app).newPerson({ pages: 0, adAccounts: 1 });
  const connected = await connectAdAccounts(app, owner, await pendingConnection(app, owner), person.adAccountIds);
  expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
  return { adAccountId: connected.body.data[0].id, platformAdAccountId: person.adAccountIds[0]! };
}

/** A new advertiser on the ads platform (in `currency`), connected to the owner's profile by the OAuth dance. */
export async function connectTikTokAdAccount(app: TestApp, owner: TestOwner, currency = 'USD'): Promise<ConnectedAdAccount> {
  const people = new ShortVideoAdsPeople(() => app);
  const { adAccountId, advertiser } = await connectAdvertiser(app, owner, people, { currency, display_timezone: 'Europe/Berlin' });
  return { adAccountId, platformAdAccountId: advertiser.advertiser_id };
}

/** What the Marketing API's advertisers do about insights in their ads manager. */
export class MarketingInsightsPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'social_network');
  }

  /** The ad account enables a breakdown the platform wants enabled first (`impression_device`, …, the Graph's name). */
  async enableBreakdown(platformAdAccountId: string, breakdown: string): Promise<void> {
    await this.post(`ad-accounts/${platformAdAccountId}/breakdowns`, { breakdown });
  }

  /** The platform answers at most this many rows at once for the ad account, then wants a report run. */
  async limitInsightsRows(platformAdAccountId: string, maxRows: number): Promise<void> {
    await this.post(`ad-accounts/${platformAdAccountId}/insights-limit`, { maxRows });
  }
}
