import { PlatformError } from '../errors.js';
import { ShortVideoClient } from './client.js';
import type { ShortVideoSettings } from './settings.js';
import type { GrantedAccount, OAuthAdapter, OAuthGrant } from '../capabilities/oauth.js';
import type { About, AdapterAccount, Credentials } from '../types.js';
import { ShortVideoInsights } from './insights.js';
import { ShortVideoPublisher } from './publisher.js';
import type { OpenMedia } from '../platform-module.js';
import { ShortVideoWebhooks } from './webhooks.js';

/** `video.list` reads the creator's public videos for the account's history; `user.info.stats` their counts (analytics). */
export const SCOPES = ['user.info.basic', 'user.info.stats', 'video.publish', 'video.upload', 'video.list'];
/** Without these the account is of no use to the service: it could not even be named, or not publish. */
const REQUIRED_SCOPES = ['user.info.basic', 'video.publish'];

/** User fields by the scope that unlocks them: a field asked for without its scope is refused, so only granted ones are asked. */
const FIELDS_BY_SCOPE: Record<string, string[]> = {
  'user.info.basic': ['open_id', 'union_id', 'avatar_url', 'display_name'],
  'user.info.profile': ['username', 'bio_description', 'profile_deep_link', 'is_verified'],
  'user.info.stats': ['follower_count', 'following_count', 'video_count'],
};

interface TikTokUser {
  open_id: string;
  union_id?: string;
  avatar_url?: string;
  display_name?: string;
  username?: string;
  bio_description?: string;
  profile_deep_link?: string;
  is_verified?: boolean;
  follower_count?: number;
  following_count?: number;
  video_count?: number;
}
/** `short_video`: a creator's own profile over Login Kit v2 (PKCE, 2 h access tokens, rotating refresh tokens). */
export class ShortVideoAdapter implements OAuthAdapter {
  readonly id = 'short_video' as const;
  readonly lacks = {
    comments:
      "short_video comments are reachable only through TikTok's Business API, which the account's login (Login Kit) does not grant.",
  };
  readonly webhooks: ShortVideoWebhooks;
  readonly publisher: ShortVideoPublisher;
  readonly insights: ShortVideoInsights;

  private readonly client: ShortVideoClient;

  /** `openMedia` reads a stored media file's bytes, which a video's upload sends in chunks. */
  constructor(
    private readonly endpoints: ShortVideoSettings,
    openMedia: OpenMedia,
  ) {
    this.client = new ShortVideoClient(endpoints.apiUrl, endpoints);
    this.webhooks = new ShortVideoWebhooks(endpoints.clientKey, endpoints.clientSecret);
    this.publisher = new ShortVideoPublisher(this.client, openMedia);
    this.insights = new ShortVideoInsights(this.client);
  }

  readonly oauth = {
    pkce: true,
    // Login Kit takes the S256 challenge hex-encoded, not base64url as RFC 7636 has it.
    challengeEncoding: 'hex' as const,
    authorizationUrl: ({ state, redirectUri, codeChallenge }: { state: string; redirectUri: string; codeChallenge: string | null }) => {
      const params = new URLSearchParams({
        client_key: this.endpoints.clientKey,
        scope: SCOPES.join(','),
        response_type: 'code',
        redirect_uri: redirectUri,
        state,
      });
      if (codeChallenge) {
        params.set('code_challenge', codeChallenge);
        params.set('code_challenge_method', 'S256');
      }
      return `${this.endpoints.authorizeUrl}?${params}`;
    },
    exchange: (code: string, redirectUri: string, codeVerifier: string | null) =>
      this.token({
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
      }),
    accounts: async (grant: OAuthGrant): Promise<GrantedAccount[]> => {
      const missing = REQUIRED_SCOPES.filter((scope) => !grant.scopes.includes(scope));
      if (missing.length > 0) throw new PlatformError('permission_revoked', `the ${missing.join(', ')} permission was not granted`);
      const user = await this.user(grant.accessToken, grant.scopes);
      return [
        {
          identity: {
            platformAccountId: user.open_id,
            kind: 'user',
            name: user.display_name || user.username || user.open_id,
            username: user.username ?? null,
            avatarUrl: user.avatar_url ?? null,
            scopes: grant.scopes,
            tokenExpiresAt: grant.expiresAt,
          },
          credentials: credentialsOf(grant, null),
        },
      ];
    },
  };

  /** Refresh tokens rotate: the answer's refresh token replaces the one spent, which stops working. */
  readonly refresh = async (credentials: Credentials) => {
    if (!credentials.refreshToken) throw new PlatformError('auth_expired', 'no refresh token was granted; connect again');
    const grant = await this.token({ grant_type: 'refresh_token', refresh_token: credentials.refreshToken });
    return { credentials: credentialsOf(grant, credentials), tokenExpiresAt: grant.expiresAt };
  };

  async about(account: AdapterAccount): Promise<About> {
    const scopes = (account.credentials.extra?.scope ?? 'user.info.basic').split(',');
    const user = await this.user(account.credentials.accessToken, scopes);
    return {
      platformAccountId: user.open_id,
      name: user.display_name || user.username || user.open_id,
      username: user.username ?? null,
      bio: user.bio_description || null,
      url: user.profile_deep_link ?? null,
      pictureUrl: user.avatar_url ?? null,
      category: null,
      followersCount: user.follower_count ?? null,
      followingCount: user.following_count ?? null,
      postsCount: user.video_count ?? null,
      verified: user.is_verified ?? null,
      platformData: user as unknown as Record<string, unknown>,
    };
  }

  async revoke(account: AdapterAccount): Promise<void> {
    await this.client.oauth('/v2/oauth/revoke/', { token: account.credentials.accessToken });
  }

  /** The token endpoint, for the code exchange and for refreshes; errors may come with HTTP 200, so the body decides. */
  private async token(params: Record<string, string>): Promise<OAuthGrant> {
    const body = await this.client.oauth('/v2/oauth/token/', params, (answer) => Boolean(answer.access_token));
    const inSeconds = (seconds: number | undefined) => (seconds ? new Date(Date.now() + seconds * 1000) : null);
    return {
      accessToken: body.access_token!,
      refreshToken: body.refresh_token ?? null,
      expiresAt: inSeconds(body.expires_in),
      scopes: (body.scope ?? '').split(/[,\s]+/).filter(Boolean),
      extra: { openId: body.open_id ?? '', refreshExpiresAt: inSeconds(body.refresh_expires_in)?.toISOString() ?? '' },
    };
  }

  private async user(accessToken: string, scopes: string[]): Promise<TikTokUser> {
    const fields = scopes.flatMap((scope) => FIELDS_BY_SCOPE[scope] ?? []);
    const data = await this.client.api<{ user?: TikTokUser }>(accessToken, 'GET', `/v2/user/info/?fields=${fields.join(',')}`);
    if (!data.user?.open_id) throw new PlatformError('transient', 'the user info answer names no user');
    return data.user;
  }
}

/**
 * The tokens to keep: the newest refresh token always (a refresh answer without one keeps the previous), and
 * the granted scopes, which decide the user fields that may be asked for.
 */
function credentialsOf(grant: OAuthGrant, previous: Credentials | null): Credentials {
  const refreshToken = grant.refreshToken ?? previous?.refreshToken;
  const scope = grant.scopes.length > 0 ? grant.scopes.join(',') : (previous?.extra?.scope ?? '');
  const refreshExpiresAt = grant.extra.refreshExpiresAt || previous?.extra?.refreshExpiresAt || '';
  return { accessToken: grant.accessToken, ...(refreshToken ? { refreshToken } : {}), extra: { scope, refreshExpiresAt } };
}
