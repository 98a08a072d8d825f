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

  /** The ad account's next create on `edge` (`campaigns`, `adsets`, `ads`, `adcreatives`) is made, then its answer is lost. */
  async loseCreateAnswer(adAccountId: string, edge: string): Promise<void> {
    await this.post('marketing-faults', { adAccountId, faults: [{ kind: 'lose_answer', edge }] });
  }

  /** The ad account's campaigns, ad sets, ads and creatives as the platform keeps them. */
  async adObjects(adAccountId: string): Promise<Array<{ id: string; kind: string; status: string; fields: Record<string, unknown> }>> {
    return (await this.get('ad-objects', { adAccountId })).objects;
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
