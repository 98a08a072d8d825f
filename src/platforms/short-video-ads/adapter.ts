import { PlatformError } from '../errors.js';
import { BusinessApiClient } from './client.js';
import type { ShortVideoAdsSettings } from './settings.js';
import { ShortVideoAdsWebhooks } from './webhooks.js';
import type { GrantedAdAccount, OAuthAdapter, OAuthGrant } from '../capabilities/oauth.js';
import type { About, AdapterAccount } from '../types.js';

interface Advertiser {
  advertiser_id: string;
  name?: string;
  currency?: string;
  timezone?: string;
  display_timezone?: string;
  status?: string;
  [field: string]: unknown;
}

type PlatformStatus = GrantedAdAccount['platformStatus'];

/** The advertiser's own state at the platform; anything not listed is `unknown`. */
const STATUSES: Record<string, PlatformStatus> = {
  STATUS_ENABLE: 'active',
  STATUS_DISABLE: 'disabled',
  STATUS_LIMIT: 'disabled',
  STATUS_CONFIRM_FAIL: 'disabled',
  STATUS_CONFIRM_FAIL_END: 'disabled',
  STATUS_PENDING_CONFIRM: 'pending_review',
  STATUS_PENDING_VERIFIED: 'pending_review',
  STATUS_PENDING_CONFIRM_MODIFY: 'pending_review',
  STATUS_WAIT_FOR_BPM_AUDIT: 'pending_review',
  STATUS_WAIT_FOR_PUBLIC_AUTH: 'pending_review',
  STATUS_SELF_SERVICE_UNAUDITED: 'pending_review',
  STATUS_CONTRACT_PENDING: 'pending_review',
};

const FIELDS = ['advertiser_id', 'name', 'currency', 'timezone', 'display_timezone', 'status', 'company', 'country', 'role'];
/** advertiser/info takes at most this many ids per call. */
const PAGE = 100;

/** `short_video_ads`: the advertisers a person grants the app, connected as ad accounts (no accounts). */
export class ShortVideoAdsAdapter implements OAuthAdapter {
  readonly id = 'short_video_ads' as const;
  readonly lacks = {
    insights: 'short_video_ads accounts are ad accounts: their figures are ad insights (GET /ads/insights), not account analytics.',
  };

  private readonly client: BusinessApiClient;
  /** The app's webhooks (the callback URL is set in the developer portal): advertisers' revocations. */
  readonly webhooks: ShortVideoAdsWebhooks;

  constructor(private readonly endpoints: ShortVideoAdsSettings) {
    this.client = new BusinessApiClient(endpoints.apiUrl);
    this.webhooks = new ShortVideoAdsWebhooks(endpoints.appId, endpoints.secret);
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
    adAccounts: async (grant: OAuthGrant): Promise<GrantedAdAccount[]> => {
      const ids = grant.extra.advertiserIds?.split(',').filter(Boolean) ?? [];
      const granted: GrantedAdAccount[] = [];
      for (let at = 0; at < ids.length; at += PAGE) {
        for (const advertiser of await this.advertisers(grant.accessToken, ids.slice(at, at + PAGE))) {
          granted.push({
            platformAdAccountId: String(advertiser.advertiser_id),
            name: (advertiser.name || String(advertiser.advertiser_id)).slice(0, 255),
            // XXX is ISO 4217's "no currency": the contract wants three letters even where the platform gave none.
            currency: /^[A-Za-z]{3}$/.test(advertiser.currency ?? '') ? advertiser.currency!.toUpperCase() : 'XXX',
            timezone: (advertiser.display_timezone || advertiser.timezone || 'UTC').slice(0, 64),
            platformStatus: STATUSES[advertiser.status ?? ''] ?? 'unknown',
            tokenExpiresAt: grant.expiresAt,
            credentials: { accessToken: grant.accessToken },
          });
        }
      }
      return granted;
    },
  };

  async about(account: AdapterAccount): Promise<About> {
    const [advertiser] = await this.advertisers(account.credentials.accessToken, [account.platformAccountId]);
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

  private advertisers(accessToken: string, ids: string[]): Promise<Advertiser[]> {
    // List parameters of GET calls are JSON arrays in the query string.
    const query = new URLSearchParams({ advertiser_ids: JSON.stringify(ids), fields: JSON.stringify(FIELDS) });
    return this.client.call<{ list?: Advertiser[] }>(`/advertiser/info/?${query}`, { accessToken }).then((data) => data.list ?? []);
  }
}
