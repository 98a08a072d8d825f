import { createHmac } from 'node:crypto';
import { PlatformError } from '../errors.js';
import { withQuery } from '../meta/graph.js';
import type { OAuthAdapter, OAuthGrant, SelectingFlow } from '../capabilities/oauth.js';
import type { About, AdapterAccount, Credentials } from '../types.js';
import { SocialNetworkAdAudiences } from './ad-audiences.js';
import { SocialNetworkAdBoosts } from './ad-boosts.js';
import { SocialNetworkAdCreatives } from './ad-creatives.js';
import { SocialNetworkAdPixels } from './ad-pixels.js';
import { SocialNetworkAdInsights } from './ad-insights.js';
import { SocialNetworkAds } from './ads.js';
import { SocialNetworkAdCampaigns } from './campaigns.js';
import { SocialNetworkClient } from './client.js';
import { SocialNetworkComments } from './comments.js';
import { SocialNetworkCommerce } from './commerce.js';
import { SocialNetworkInsights } from './insights.js';
import { SocialNetworkLeads } from './leads.js';
import { SocialNetworkPages } from './pages.js';
import { SocialNetworkMessaging } from './messaging.js';
import { SocialNetworkPublisher } from './publisher.js';
import { SocialNetworkWebhooks } from './webhooks.js';

/** Where the Graph API and the login dialog live (the real hosts, or the sandbox's), and the app using them. */
export interface SocialNetworkEndpoints {
  appId: string;
  appSecret: string;
  /** Answers the webhook handshake; unset, one is derived from the app secret (the app subscription sends it). */
  verifyToken: string | undefined;
  /** `{host}/{version}` */
  graphUrl: string;
  /** The `{version}` of graphUrl. */
  apiVersion: string;
  /** `{host}/{version}/dialog/oauth` */
  dialogUrl: string;
  /** Our own webhook address, registered as the app's callback URL. */
  webhookUrl: string;
}

/** Pages (publish, inbox, comments, insights, lead forms, catalogs) and ads; `pages_show_list` alone lets pages be listed. */
export const SCOPES = [
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_posts',
  'pages_manage_engagement',
  'pages_read_user_engagement',
  'pages_messaging',
  'pages_manage_metadata',
  'read_insights',
  'leads_retrieval',
  'pages_manage_ads',
  'ads_management',
  'ads_read',
  'business_management',
  'catalog_management',
];
const ADS_SCOPES = ['ads_management', 'ads_read'];

interface TokenAnswer {
  access_token: string;
  token_type?: string;
  expires_in?: number;
}
interface GraphPageAbout {
  id: string;
  name: string;
  username?: string;
  about?: string;
  category?: string;
  link?: string;
  website?: string;
  fan_count?: number;
  followers_count?: number;
  verification_status?: string;
  picture?: { data?: { url?: string } };
}

/** The user token kept by a pending connection, and what it was granted. */
export interface PendingGrant {
  userToken: string;
  userId: string;
  scopes: string[];
  expiresAt: Date | null;
}

export function pendingGrantOf(credentials: Credentials): PendingGrant {
  const extra = credentials.extra ?? {};
  return {
    userToken: credentials.accessToken,
    userId: extra.userId ?? '',
    scopes: (extra.scopes ?? '').split(',').filter(Boolean),
    expiresAt: extra.expiresAt ? new Date(extra.expiresAt) : null,
  };
}

export function hasAdsPermission(grant: PendingGrant): boolean {
  return grant.scopes.some((scope) => ADS_SCOPES.includes(scope));
}

/**
 * `social_network`: pages and ad accounts over the Graph API. The login dialog grants a user token, made
 * long-lived (about 60 days; there is no refresh token: a valid one is exchanged for a new one, an expired one needs
 * a new login); the pages come with page tokens that do not expire. The user chooses pages and ad accounts after
 * consent (a pending connection); ad accounts keep the user token.
 */
export class SocialNetworkAdapter implements OAuthAdapter {
  readonly id = 'social_network' as const;
  /** A 60-day user token is exchanged 10 days ahead, so a run that fails leaves days to try again. */
  readonly refreshAheadMs = 10 * 24 * 3600 * 1000;
  /** The pages a grant's user manages, to choose among (a pending connection). */
  readonly pages: SocialNetworkPages;
  readonly ads: SocialNetworkAds;
  readonly adCreatives: SocialNetworkAdCreatives;
  readonly adBoosts: SocialNetworkAdBoosts;
  readonly adInsights: SocialNetworkAdInsights;
  readonly adCampaigns: SocialNetworkAdCampaigns;
  readonly adAudiences: SocialNetworkAdAudiences;
  readonly adPixels: SocialNetworkAdPixels;
  readonly webhooks: SocialNetworkWebhooks;
  readonly publisher: SocialNetworkPublisher;
  readonly comments: SocialNetworkComments;
  readonly commerce: SocialNetworkCommerce;
  /** Messenger messages from the page. */
  readonly messaging: SocialNetworkMessaging;
  readonly insights: SocialNetworkInsights;
  readonly leads: SocialNetworkLeads;
  private readonly client: SocialNetworkClient;
  private appSubscriptions: Promise<void> | null = null;

  constructor(private readonly endpoints: SocialNetworkEndpoints) {
    this.client = new SocialNetworkClient(endpoints.graphUrl);
    this.pages = new SocialNetworkPages(this.client);
    this.ads = new SocialNetworkAds(this.client, endpoints.appId);
    this.adCreatives = new SocialNetworkAdCreatives(this.client);
    this.adBoosts = new SocialNetworkAdBoosts(this.client);
    this.adInsights = new SocialNetworkAdInsights(this.client);
    this.adCampaigns = new SocialNetworkAdCampaigns(this.client);
    this.adAudiences = new SocialNetworkAdAudiences(this.client);
    this.adPixels = new SocialNetworkAdPixels(this.client);
    this.publisher = new SocialNetworkPublisher(this.client);
    this.comments = new SocialNetworkComments(this.client);
    this.commerce = new SocialNetworkCommerce(this.client);
    this.messaging = new SocialNetworkMessaging(this.client);
    this.insights = new SocialNetworkInsights(this.client, endpoints.apiVersion);
    this.leads = new SocialNetworkLeads(this.client);
    const verifyToken =
      endpoints.verifyToken ?? createHmac('sha256', endpoints.appSecret).update('socialgate webhook verify token').digest('base64url');
    this.webhooks = new SocialNetworkWebhooks(endpoints.appSecret, verifyToken);
  }

  private token(query: Record<string, string>): Promise<TokenAnswer> {
    return this.client.call<TokenAnswer>('GET', 'oauth/access_token', {
      query: { client_id: this.endpoints.appId, client_secret: this.endpoints.appSecret, ...query },
    });
  }

  readonly oauth: SelectingFlow = {
    pkce: false,
    authorizationUrl: ({ state, redirectUri }) =>
      withQuery(this.endpoints.dialogUrl, {
        client_id: this.endpoints.appId,
        redirect_uri: redirectUri,
        state,
        scope: SCOPES.join(','),
        response_type: 'code',
      }),
    /** The code gives a short-lived token (1-2 hours); it is swapped at once for a long-lived one. */
    exchange: async (code, redirectUri): Promise<OAuthGrant> => {
      const short = await this.token({ redirect_uri: redirectUri, code });
      const long = await this.token({ grant_type: 'fb_exchange_token', fb_exchange_token: short.access_token });
      return {
        accessToken: long.access_token,
        refreshToken: null,
        scopes: [],
        extra: {},
        expiresAt: long.expires_in ? new Date(Date.now() + long.expires_in * 1000) : null,
      };
    },
    /** Who granted, and what they granted: people may untick permissions in the dialog. */
    pendingSelection: async (grant) => {
      const token = grant.accessToken;
      const me = await this.client.call<{ id: string }>('GET', 'me', { token, query: { fields: 'id,name' } });
      const permissions = await this.client.call<{ data: Array<{ permission: string; status: string }> }>('GET', 'me/permissions', {
        token,
      });
      const scopes = permissions.data.filter((p) => p.status === 'granted').map((p) => p.permission);
      if (!scopes.includes('pages_show_list') && !scopes.some((scope) => ADS_SCOPES.includes(scope))) {
        throw new PlatformError(
          'permission_revoked',
          'Neither the pages nor the ads permissions were granted, so there is nothing to connect.',
        );
      }
      return {
        accessToken: grant.accessToken,
        extra: { userId: me.id, scopes: scopes.join(','), expiresAt: grant.expiresAt?.toISOString() ?? '' },
      };
    },
  };

  /** The long-lived user token (an ad account's) exchanged, while still valid, for a new one of about 60 days. */
  readonly refresh = async (credentials: Credentials) => {
    const long = await this.token({ grant_type: 'fb_exchange_token', fb_exchange_token: credentials.accessToken });
    return {
      credentials: { ...credentials, accessToken: long.access_token },
      tokenExpiresAt: long.expires_in ? new Date(Date.now() + long.expires_in * 1000) : null,
    };
  };

  /**
   * Points the app's page, permissions and ad account webhooks at us (`POST /{app-id}/subscriptions`, app token); the
   * platform checks the address with the GET handshake first. Once per process; a failure is tried again.
   */
  ensureAppSubscriptions(): Promise<void> {
    this.appSubscriptions ??= (async () => {
      const appToken = `${this.endpoints.appId}|${this.endpoints.appSecret}`;
      for (const [object, fields] of [
        ['page', 'messages,feed,leadgen'],
        ['permissions', SCOPES.join(',')],
        ['ad_account', 'in_process_ad_objects,with_issues_ad_objects,ad_recommendations'],
      ] as const) {
        await this.client.call('POST', `${this.endpoints.appId}/subscriptions`, {
          form: {
            object,
            fields,
            callback_url: this.endpoints.webhookUrl,
            verify_token: this.webhooks.verifyToken,
            include_values: 'true',
            access_token: appToken,
          },
        });
      }
    })().catch((error: unknown) => {
      this.appSubscriptions = null;
      throw error;
    });
    return this.appSubscriptions;
  }

  async about(account: AdapterAccount): Promise<About> {
    const page = await this.client.call<GraphPageAbout & Record<string, unknown>>('GET', account.platformAccountId, {
      token: account.credentials.accessToken,
      query: { fields: 'id,name,username,about,category,link,website,fan_count,followers_count,verification_status,picture{url}' },
    });
    return {
      platformAccountId: page.id,
      name: page.name,
      username: page.username ?? null,
      bio: page.about ?? null,
      url: page.link ?? null,
      pictureUrl: page.picture?.data?.url ?? null,
      category: page.category ?? null,
      followersCount: page.followers_count ?? page.fan_count ?? null,
      followingCount: null,
      postsCount: null,
      verified: page.verification_status === undefined ? null : page.verification_status !== 'not_verified',
      platformData: page,
    };
  }

  /** A page's or ad account's webhook subscription is the app's, shared by every connection of it (two owners manage it). */
  readonly revokeIsShared = true;

  /**
   * Unsubscribes the app from the page's webhooks (page token) or the ad account's (user token), so its events stop
   * coming. A token that no longer works (190: the person removed the app, or the token was invalidated) leaves
   * nothing to undo. The user's grant stays: it is every page's and ad account's they connected.
   */
  async revoke(account: AdapterAccount): Promise<void> {
    const { platformAccountId: id, credentials } = account;
    const unsubscribe = id.startsWith('act_')
      ? this.ads.unsubscribeAdAccount(id, credentials.accessToken)
      : this.pages.unsubscribe(id, credentials.accessToken);
    await unsubscribe.catch((error: unknown) => {
      if (!(error instanceof PlatformError && error.kind === 'auth_expired')) throw error;
    });
  }
}
