import { PlatformError } from '../errors.js';
import { ShortVideoAdsAdAudiences } from './ad-audiences.js';
import { ShortVideoAdsAdInsights } from './ad-insights.js';
import { ShortVideoAdsAdPixels } from './ad-pixels.js';
import { ShortVideoAdsAds } from './ads.js';
import { ShortVideoAdsCampaigns } from './campaigns.js';
import { BusinessApiClient } from './client.js';
import { ShortVideoAdsLeads } from './leads.js';
import { ShortVideoAdsAdBoosts } from './spark.js';
import type { ShortVideoAdsSettings } from './settings.js';
import { ShortVideoAdsWebhooks } from './webhooks.js';
import type { GrantedAdAccount, OAuthAdapter, OAuthGrant } from '../capabilities/oauth.js';
import type { About, AdapterAccount } from '../types.js';

/** `short_video_ads`: the advertisers a person grants the app, connected as ad accounts (no accounts). */
export class ShortVideoAdsAdapter implements OAuthAdapter {
  readonly id = 'short_video_ads' as const;
  readonly lacks = {
    insights: 'short_video_ads accounts are ad accounts: their figures are ad insights (GET /ads/insights), not account analytics.',
  };

  private readonly client: BusinessApiClient;
  /** The advertisers a token reaches, as every ad platform lists its ad accounts. */
  readonly ads: ShortVideoAdsAds;
  /** The advertiser's instant forms and their leads. */
  readonly leads: ShortVideoAdsLeads;
  /** Reports and the targeting tools. */
  readonly adInsights: ShortVideoAdsAdInsights;
  /** The app's webhooks (the callback URL is set in the developer portal): advertisers' revocations. */
  readonly webhooks: ShortVideoAdsWebhooks;
  /** Campaigns, ad groups and ads of a connected advertiser. */
  readonly adCampaigns: ShortVideoAdsCampaigns;
  /** Customer files, lookalikes and pixel-rule audiences (the DMP). */
  readonly adAudiences: ShortVideoAdsAdAudiences;
  /** Boosting a TikTok post: Spark ads of posts their creators authorised for the advertiser. */
  readonly adBoosts: ShortVideoAdsAdBoosts;
  /** Pixels, their web events (the Events API 2.0) and custom conversions. */
  readonly adPixels: ShortVideoAdsAdPixels;

  constructor(private readonly endpoints: ShortVideoAdsSettings) {
    this.client = new BusinessApiClient(endpoints.apiUrl);
    this.ads = new ShortVideoAdsAds(this.client, endpoints);
    this.leads = new ShortVideoAdsLeads(this.client);
    this.adInsights = new ShortVideoAdsAdInsights(this.client, endpoints.apiUrl);
    this.webhooks = new ShortVideoAdsWebhooks(endpoints.appId, endpoints.secret);
    this.adCampaigns = new ShortVideoAdsCampaigns(this.client);
    this.adBoosts = new ShortVideoAdsAdBoosts(this.client);
    this.adAudiences = new ShortVideoAdsAdAudiences(this.client, (account) => this.adCampaigns.countryIds(account));
    this.adPixels = new ShortVideoAdsAdPixels(this.client);
  }

  readonly oauth = {
    pkce: false,
    authorizationUrl: ({ state, redirectUri }: { state: string; redirectUri: string }) =>
      `${this.endpoints.authUrl}?${new URLSearchParams({ app_id: this.endpoints.appId, state, redirect_uri: redirectUri })}`,
    /** The consent sends `auth_code` (valid 10 minutes); it is exchanged with the app's secret, JSON-encoded. */
    exchange: async (authCode: string): Promise<OAuthGrant> => {
      const data = await this.client.call<{
        access_token?: string;
        advertiser_ids?: Array<string | number>;
        scope?: unknown[];
        expires_in?: number;
      }>('/oauth2/access_token/', {
        method: 'POST',
        body: { app_id: this.endpoints.appId, secret: this.endpoints.secret, auth_code: authCode },
      });
      if (!data.access_token) throw new PlatformError('transient', 'the token answer carries no access token');
      return {
        accessToken: data.access_token,
        refreshToken: null,
        // Advertiser tokens do not expire (until revoked); an answer that says otherwise is believed.
        expiresAt: data.expires_in ? new Date(Date.now() + data.expires_in * 1000) : null,
        scopes: (data.scope ?? []).map(String),
        extra: { advertiserIds: (data.advertiser_ids ?? []).map(String).join(',') },
      };
    },
    accounts: async () => [],
    /** The advertisers the consent named, read with the token it granted. */
    adAccounts: async (grant: OAuthGrant): Promise<GrantedAdAccount[]> => {
      const ids = grant.extra.advertiserIds?.split(',').filter(Boolean) ?? [];
      return [...(await this.ads.findAdAccounts(grant.accessToken, ids)).values()].map((advertiser) => ({
        platformAdAccountId: advertiser.id,
        name: advertiser.name,
        currency: advertiser.currency,
        timezone: advertiser.timezone,
        platformStatus: advertiser.platformStatus,
        tokenExpiresAt: grant.expiresAt,
        credentials: { accessToken: grant.accessToken },
      }));
    },
  };

  async about(account: AdapterAccount): Promise<About> {
    const [advertiser] = await this.ads.advertisers(account.credentials.accessToken, [account.platformAccountId]);
    if (!advertiser) throw new PlatformError('permission_revoked', 'the advertiser is no longer granted to the app');
    return {
      platformAccountId: String(advertiser.advertiser_id),
      name: advertiser.name ?? String(advertiser.advertiser_id),
      username: null,
      bio: null,
      url: null,
      pictureUrl: null,
      category: 'advertiser',
      followersCount: null,
      followingCount: null,
      postsCount: null,
      verified: null,
      platformData: advertiser,
    };
  }
}
