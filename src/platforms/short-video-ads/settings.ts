import { appCredentials, baseUrl, configured, type SettingsRead, unconfigured } from '../settings.js';

/** The Business API developer app and where it lives. */
export interface ShortVideoAdsSettings {
  appId: string;
  secret: string;
  /** The advertiser's consent page, `https://business-api.tiktok.com/portal/auth`. */
  authUrl: string;
  /** The versioned API root, `https://business-api.tiktok.com/open_api/v1.3`. */
  apiUrl: string;
}

export function shortVideoAdsSettings(env: NodeJS.ProcessEnv): SettingsRead<ShortVideoAdsSettings> {
  const app = appCredentials(env, 'SHORT_VIDEO_ADS_APP_ID', 'SHORT_VIDEO_ADS_APP_SECRET');
  if (!app) return unconfigured('set SHORT_VIDEO_ADS_APP_ID and SHORT_VIDEO_ADS_APP_SECRET');
  return configured({
    appId: app.id,
    secret: app.secret,
    authUrl: env.SHORT_VIDEO_ADS_AUTH_URL || 'https://business-api.tiktok.com/portal/auth',
    // The API version is part of this URL (v1.3 today): a new version is a configuration change.
    apiUrl: baseUrl(env.SHORT_VIDEO_ADS_API_URL, 'https://business-api.tiktok.com/open_api/v1.3')!,
  });
}
