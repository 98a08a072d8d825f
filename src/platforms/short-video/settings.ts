import { appCredentials, baseUrl, configured, type SettingsRead, unconfigured } from '../settings.js';

/** The Login Kit app and where it lives. */
export interface ShortVideoSettings {
  clientKey: string;
  clientSecret: string;
  /** The consent page, `https://www.tiktok.com/v2/auth/authorize/`. */
  authorizeUrl: string;
  /** The open API host, `https://open.tiktokapis.com`: token, revoke and user info live under `/v2/`. */
  apiUrl: string;
}

export function shortVideoSettings(env: NodeJS.ProcessEnv): SettingsRead<ShortVideoSettings> {
  const app = appCredentials(env, 'SHORT_VIDEO_CLIENT_KEY', 'SHORT_VIDEO_CLIENT_SECRET');
  if (!app) return unconfigured('set SHORT_VIDEO_CLIENT_KEY and SHORT_VIDEO_CLIENT_SECRET');
  return configured({
    clientKey: app.id,
    clientSecret: app.secret,
    authorizeUrl: env.SHORT_VIDEO_AUTHORIZE_URL || 'https://www.tiktok.com/v2/auth/authorize/',
    apiUrl: baseUrl(env.SHORT_VIDEO_API_URL, 'https://open.tiktokapis.com')!,
  });
}
