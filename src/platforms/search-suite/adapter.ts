import { PlatformError } from '../errors.js';
import type { GrantedAccount, OAuthAdapter, OAuthGrant } from '../capabilities/oauth.js';
import { CALENDAR_SCOPE } from './calendar-events.js';
import { BUSINESS_SCOPE, google, googleToken, refreshGoogle, revokeGoogle } from './client.js';
import { SearchSuiteInsights } from './insights.js';
import { SearchSuitePublisher } from './publisher.js';
import type { SearchSuiteSettings } from './settings.js';
import type { About, AdapterAccount, Credentials, PlatformIdentity } from '../types.js';

const SCOPES = { business: BUSINESS_SCOPE, calendar: CALENDAR_SCOPE };

interface GoogleAccount {
  name: string;
  accountName?: string;
  type?: string;
}
interface GoogleLocation {
  name: string;
  title?: string;
  websiteUri?: string;
  categories?: { primaryCategory?: { displayName?: string } };
  profile?: { description?: string };
}

/** `search_suite`: business profiles (locations) over OAuth 2.0 with PKCE and refresh tokens. */
export class SearchSuiteAdapter implements OAuthAdapter {
  readonly id = 'search_suite' as const;

  /** Posts: local posts on the location. */
  readonly publisher: SearchSuitePublisher;
  readonly insights: SearchSuiteInsights;

  constructor(private readonly endpoints: SearchSuiteSettings) {
    this.publisher = new SearchSuitePublisher(endpoints.localPostsApiUrl);
    this.insights = new SearchSuiteInsights(endpoints.performanceApiUrl);
  }

  readonly oauth = {
    pkce: true,
    authorizationUrl: ({
      state,
      redirectUri,
      codeChallenge,
      include,
    }: {
      state: string;
      redirectUri: string;
      codeChallenge: string | null;
      include: string[];
    }) => {
      const scopes = [SCOPES.business, ...(include.includes('calendar') ? [SCOPES.calendar] : [])];
      const params = new URLSearchParams({
        client_id: this.endpoints.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: scopes.join(' '),
        access_type: 'offline',
        prompt: 'consent',
        state,
        include_granted_scopes: 'true',
      });
      if (codeChallenge) {
        params.set('code_challenge', codeChallenge);
        params.set('code_challenge_method', 'S256');
      }
      return `${this.endpoints.authorizeUrl}?${params}`;
    },
    exchange: (code: string, redirectUri: string, codeVerifier: string | null) =>
      googleToken(this.endpoints, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
      }),
    accounts: async (grant: OAuthGrant, include: string[]): Promise<GrantedAccount[]> => {
      if (!grant.scopes.includes(SCOPES.business))
        throw new PlatformError('permission_revoked', 'the business profile permission was not granted');
      const credentials: Credentials = {
        accessToken: grant.accessToken,
        ...(grant.refreshToken ? { refreshToken: grant.refreshToken } : {}),
      };
      const identity = (platformAccountId: string, kind: PlatformIdentity['kind'], name: string): PlatformIdentity => ({
        platformAccountId,
        kind,
        name,
        username: null,
        avatarUrl: null,
        scopes: grant.scopes,
        tokenExpiresAt: grant.expiresAt,
      });
      const { accounts = [] } = await google<{ accounts?: GoogleAccount[] }>(
        `${this.endpoints.accountsApiUrl}/v1/accounts`,
        grant.accessToken,
      );
      const granted: GrantedAccount[] = [];
      for (const account of accounts) {
        const { locations = [] } = await google<{ locations?: GoogleLocation[] }>(
          `${this.endpoints.businessInfoApiUrl}/v1/${account.name}/locations?readMask=name,title`,
          grant.accessToken,
        );
        for (const location of locations) {
          granted.push({
            identity: identity(`${account.name}/${location.name}`, 'business_location', location.title ?? location.name),
            credentials,
          });
        }
      }
      if (include.includes('calendar') && grant.scopes.includes(SCOPES.calendar)) {
        const calendar = await google<{ id: string; summary?: string }>(
          `${this.endpoints.calendarApiUrl}/users/me/calendarList/primary`,
          grant.accessToken,
        );
        granted.push({ platform: 'calendar', identity: identity(calendar.id, 'calendar', calendar.summary ?? calendar.id), credentials });
      }
      return granted;
    },
  };

  readonly refresh = (credentials: Credentials) => refreshGoogle(this.endpoints, credentials);

  async about(account: AdapterAccount): Promise<About> {
    const locationName = account.platformAccountId.split('/').slice(2).join('/');
    const location = await google<GoogleLocation & Record<string, unknown>>(
      `${this.endpoints.businessInfoApiUrl}/v1/${locationName}?readMask=name,title,websiteUri,categories,profile`,
      account.credentials.accessToken,
    );
    return {
      platformAccountId: account.platformAccountId,
      name: location.title ?? location.name,
      username: null,
      bio: location.profile?.description ?? null,
      url: location.websiteUri ?? null,
      pictureUrl: null,
      category: location.categories?.primaryCategory?.displayName ?? null,
      followersCount: null,
      followingCount: null,
      postsCount: null,
      verified: null,
      platformData: location,
    };
  }

  async revoke(account: AdapterAccount): Promise<void> {
    await revokeGoogle(this.endpoints.revokeUrl, account.credentials);
  }
}
