import { PlatformError } from '../errors.js';
import { withQuery } from '../meta/graph.js';
import type { ConnectingFlow, GrantedAccount, OAuthAdapter, OAuthGrant } from '../capabilities/oauth.js';
import type { About, AdapterAccount, Credentials } from '../types.js';
import { SocialThreadsClient } from './client.js';
import { SocialThreadsComments } from './comments.js';
import { derivedVerifyToken } from '../meta/webhook-signature.js';
import { SocialThreadsInsights } from './insights.js';
import { SocialThreadsPublisher } from './publisher.js';
import type { SocialThreadsSettings } from './settings.js';
import { SocialThreadsWebhooks } from './webhooks.js';

export const SCOPES = [
  'threads_basic',
  'threads_content_publish',
  'threads_manage_replies',
  'threads_read_replies',
  'threads_manage_insights',
  'threads_delete',
];
const PROFILE_FIELDS = 'id,username,name,threads_profile_picture_url,threads_biography';
/**
 * Long-lived tokens last 60 days and are refreshed with themselves while still valid (and at least 24 hours old).
 * Ten days ahead leaves room for a worker that was down, and stays clear of the health's 7-day warning.
 */
const REFRESH_AHEAD_MS = 10 * 24 * 3600 * 1000;

interface TokenAnswer {
  access_token: string;
  user_id?: string | number;
  token_type?: string;
  expires_in?: number;
}
interface ThreadsProfile {
  id: string;
  username?: string;
  name?: string;
  threads_profile_picture_url?: string;
  threads_biography?: string;
}

/** `social_threads`: the user's own profile, by OAuth; long-lived tokens refreshed with `th_refresh_token`. */
export class SocialThreadsAdapter implements OAuthAdapter {
  readonly id = 'social_threads' as const;
  readonly refreshAheadMs = REFRESH_AHEAD_MS;
  readonly publisher: SocialThreadsPublisher;
  readonly comments: SocialThreadsComments;
  readonly webhooks: SocialThreadsWebhooks;
  readonly insights: SocialThreadsInsights;
  private readonly client: SocialThreadsClient;

  constructor(private readonly endpoints: SocialThreadsSettings) {
    this.client = new SocialThreadsClient(endpoints.apiUrl, endpoints.version);
    this.publisher = new SocialThreadsPublisher(this.client);
    this.comments = new SocialThreadsComments(this.client);
    this.insights = new SocialThreadsInsights(this.client, endpoints.version);
    this.webhooks = new SocialThreadsWebhooks(endpoints.appSecret, endpoints.verifyToken ?? derivedVerifyToken(endpoints.appSecret));
  }

  private profile(accessToken: string): Promise<ThreadsProfile & Record<string, unknown>> {
    return this.client.call(accessToken, 'GET', 'me', { fields: PROFILE_FIELDS });
  }

  private expiry(answer: TokenAnswer): Date | null {
    return answer.expires_in ? new Date(Date.now() + answer.expires_in * 1000) : null;
  }

  readonly oauth: ConnectingFlow = {
    pkce: false,
    authorizationUrl: ({ state, redirectUri }) =>
      withQuery(this.endpoints.authorizeUrl, {
        client_id: this.endpoints.appId,
        redirect_uri: redirectUri,
        scope: SCOPES.join(','),
        response_type: 'code',
        state,
      }),
    /** The code gives a one-hour token (form POST); it is swapped at once for a 60-day one. */
    exchange: async (code, redirectUri): Promise<OAuthGrant> => {
      const short = await this.client.token<TokenAnswer>('POST', 'oauth/access_token', {
        form: {
          client_id: this.endpoints.appId,
          client_secret: this.endpoints.appSecret,
          code,
          grant_type: 'authorization_code',
          redirect_uri: redirectUri,
        },
      });
      const long = await this.client.token<TokenAnswer>('GET', 'access_token', {
        query: { grant_type: 'th_exchange_token', client_secret: this.endpoints.appSecret, access_token: short.access_token },
      });
      return {
        accessToken: long.access_token,
        refreshToken: null,
        expiresAt: this.expiry(long),
        scopes: SCOPES,
        extra: short.user_id === undefined ? {} : { userId: String(short.user_id) },
      };
    },
    accounts: async (grant: OAuthGrant): Promise<GrantedAccount[]> => {
      const me = await this.profile(grant.accessToken);
      return [
        {
          identity: {
            platformAccountId: me.id,
            kind: 'user',
            name: me.name || me.username || me.id,
            username: me.username ?? null,
            avatarUrl: me.threads_profile_picture_url ?? null,
            scopes: grant.scopes,
            tokenExpiresAt: grant.expiresAt,
          },
          credentials: { accessToken: grant.accessToken },
        },
      ];
    },
  };

  /** A long-lived token refreshes itself; once it has expired only a new login helps. */
  readonly refresh = async (credentials: Credentials) => {
    const answer = await this.client.token<TokenAnswer>('GET', 'refresh_access_token', {
      query: { grant_type: 'th_refresh_token', access_token: credentials.accessToken },
    });
    if (!answer.access_token) throw new PlatformError('transient', 'the refresh answered no token');
    return { credentials: { ...credentials, accessToken: answer.access_token }, tokenExpiresAt: this.expiry(answer) };
  };

  async about(account: AdapterAccount): Promise<About> {
    const me = await this.profile(account.credentials.accessToken);
    return {
      platformAccountId: me.id,
      name: me.name || me.username || me.id,
      username: me.username ?? null,
      bio: me.threads_biography ?? null,
      url: me.username ? `https://www.threads.net/@${me.username}` : null,
      pictureUrl: me.threads_profile_picture_url ?? null,
      category: null,
      followersCount: null,
      followingCount: null,
      postsCount: null,
      verified: null,
      platformData: me,
    };
  }
}
