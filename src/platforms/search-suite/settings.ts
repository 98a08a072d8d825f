import { appCredentials, baseUrl, configured, type SettingsRead, unconfigured } from '../settings.js';

/** The OAuth app and where each part of the search suite's API lives (the real hosts by default, or another implementation's). */
export interface SearchSuiteSettings {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  accountsApiUrl: string;
  businessInfoApiUrl: string;
  calendarApiUrl: string;
  /** The v4 API of local posts (`https://mybusiness.googleapis.com/v4`). */
  localPostsApiUrl: string;
  /** The Business Profile Performance API (`https://businessprofileperformance.googleapis.com`). */
  performanceApiUrl: string;
}

const url = (raw: string | undefined, real: string) => baseUrl(raw, real)!;

export function searchSuiteSettings(env: NodeJS.ProcessEnv): SettingsRead<SearchSuiteSettings> {
  const app = appCredentials(env, 'SEARCH_SUITE_CLIENT_ID', 'SEARCH_SUITE_CLIENT_SECRET');
  if (!app) return unconfigured('set SEARCH_SUITE_CLIENT_ID and SEARCH_SUITE_CLIENT_SECRET');
  return configured({
    clientId: app.id,
    clientSecret: app.secret,
    authorizeUrl: url(env.SEARCH_SUITE_AUTHORIZE_URL, 'https://accounts.google.com/o/oauth2/v2/auth'),
    tokenUrl: url(env.SEARCH_SUITE_TOKEN_URL, 'https://oauth2.googleapis.com/token'),
    revokeUrl: url(env.SEARCH_SUITE_REVOKE_URL, 'https://oauth2.googleapis.com/revoke'),
    accountsApiUrl: url(env.SEARCH_SUITE_ACCOUNTS_API_URL, 'https://mybusinessaccountmanagement.googleapis.com'),
    businessInfoApiUrl: url(env.SEARCH_SUITE_BUSINESS_INFO_API_URL, 'https://mybusinessbusinessinformation.googleapis.com'),
    calendarApiUrl: url(env.SEARCH_SUITE_CALENDAR_API_URL, 'https://www.googleapis.com/calendar/v3'),
    localPostsApiUrl: url(env.SEARCH_SUITE_LOCAL_POSTS_API_URL, 'https://mybusiness.googleapis.com/v4'),
    performanceApiUrl: url(env.SEARCH_SUITE_PERFORMANCE_API_URL, 'https://businessprofileperformance.googleapis.com'),
  });
}
