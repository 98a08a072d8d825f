import type { Signing } from '../../../src/sandbox/timestamped-signature.js';
import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';
import { consent, returnToService, startConnection } from './oauth.js';
import { People } from './people.js';

export interface Advertiser {
  advertiser_id: string;
  name: string;
  currency: string;
  display_timezone: string;
  status: string;
}

/** The people of the ads platform: the signed-in person's advertisers, and the webhooks the platform sends about them. */
export class ShortVideoAdsPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'short_video_ads');
  }

  /** Where the platform sends its webhooks: the callback URL set in the developer portal. */
  private get webhookUrl(): string {
    return `${this.app().services.config.publicUrl}/webhooks/short_video_ads`;
  }

  /** Another advertiser the signed-in person owns. */
  newAdvertiser(fields: Partial<Omit<Advertiser, 'advertiser_id'>>): Promise<Advertiser> {
    return this.post('advertisers', fields);
  }

  /**
   * The advertisers take back the app's authorisation in Business Center (every one granted, when none are
   * named): their tokens stop working, and the platform sends the signed `authorization.removed`.
   */
  removeApp(advertiserIds?: string[]): Promise<{ advertiserIds: string[]; webhookStatus: number }> {
    return this.post('revoke-access', { webhookUrl: this.webhookUrl, ...(advertiserIds ? { advertiserIds } : {}) });
  }

  /** The advertisers' tokens stop working and no webhook tells the service (lost, or no callback URL set): only a call finds out. */
  async revokeToken(advertiserIds: string[]): Promise<void> {
    await this.post('revoke-access', { advertiserIds });
  }

  /** An event the platform sends, signed as asked; the notification sent and the service's answer. */
  sendEvent(
    event: string,
    content: Record<string, unknown>,
    signing: Signing = 'valid',
  ): Promise<{ payload: Record<string, unknown>; webhookStatus: number }> {
    return this.post('events', { webhookUrl: this.webhookUrl, event, content, signing });
  }

  /** Everything the advertiser's campaign tree holds on the platform, deleted objects too (the API's own views). */
  onPlatform(advertiserId: string): Promise<{ campaigns: any[]; adgroups: any[]; ads: any[] }> {
    return this.post('tree', { advertiserId });
  }

  /** The next call of the campaign tree (of `path` only, `ad/create/`, when given) answers this code (40100 throttling, 50002 an outage …). */
  async failNext(code: number, message = 'Fault injected by the test.', path?: string): Promise<void> {
    await this.post('fail-next', { code, message, ...(path ? { path } : {}) });
  }

  /** The next create of the campaign tree (of `path` only, when given) is done, and the connection drops before its answer. */
  async loseNext(path?: string): Promise<void> {
    await this.post('lose-next', path ? { path } : {});
  }

  /** A creator generates the ad authorisation code of a post of theirs (a new post when none is named). */
  sparkCode(itemId?: string): Promise<{ authCode: string; itemId: string; identityId: string }> {
    return this.post('spark-codes', itemId ? { itemId } : {});
  }

  /** The creator withdraws the code. */
  async withdrawSparkCode(authCode: string): Promise<void> {
    await this.post('spark-codes/revoke', { authCode });
  }

  /** A creator's TikTok account linked to the advertiser (a `TT_USER` identity), with its posts switched on for ads or not. */
  linkAccount(advertiserId: string, posts: Record<string, boolean>): Promise<{ identityId: string; displayName: string }> {
    return this.post('linked-accounts', { advertiserId, posts });
  }

  /** The platform's review of an ad: approved, it delivers; denied, it does not. */
  reviewAd(adId: string, decision: 'approve' | 'deny'): Promise<Record<string, unknown>> {
    return this.post(`ads/${adId}/review`, { decision });
  }
}

/** A new advertiser of the signed-in person, connected to the owner's profile by the whole dance: its `adacc_…` id and the advertiser. */
export async function connectAdvertiser(
  app: TestApp,
  owner: TestOwner,
  people: ShortVideoAdsPeople,
  fields: Partial<Omit<Advertiser, 'advertiser_id'>> = {},
): Promise<{ adAccountId: string; advertiser: Advertiser }> {
  const advertiser = await people.newAdvertiser({ name: 'Acme Coffee TikTok', currency: 'USD', status: 'STATUS_ENABLE', ...fields });
  const back = await returnToService(
    app,
    await consent(await startConnection(app, owner, 'short_video_ads'), 'approve', { advertiser_ids: advertiser.advertiser_id }),
  );
  return { adAccountId: new URL(back.headers.get('location')!).searchParams.get('adAccountIds')!, advertiser };
}
