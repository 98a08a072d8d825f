import { appCredentials, baseUrl, configured, type SettingsRead, unconfigured } from '../settings.js';

export interface SocialThreadsSettings {
  appId: string;
  appSecret: string;
  /** Answers the webhook handshake (the dashboard's verify token); unset, one is derived from the app secret. */
  verifyToken: string | undefined;
  /** The API's host: the token endpoints live at its root, the reads under `{host}/{version}`. */
  apiUrl: string;
  version: string;
  authorizeUrl: string;
}

export const DEFAULT_VERSION = 'v1.0';

/** The app configures the platform; its hosts default to the real ones, and the version applies to the sandbox too. */
export function socialThreadsSettings(env: NodeJS.ProcessEnv): SettingsRead<SocialThreadsSettings> {
  const version = env.SOCIAL_THREADS_API_VERSION || DEFAULT_VERSION;
  const app = appCredentials(env, 'SOCIAL_THREADS_APP_ID', 'SOCIAL_THREADS_APP_SECRET');
  if (!app) return unconfigured('set SOCIAL_THREADS_APP_ID and SOCIAL_THREADS_APP_SECRET', { version });
  return configured({
    appId: app.id,
    appSecret: app.secret,
    verifyToken: env.SOCIAL_THREADS_VERIFY_TOKEN || undefined,
    version,
    apiUrl: baseUrl(env.SOCIAL_THREADS_API_URL, 'https://graph.threads.net')!,
    authorizeUrl: env.SOCIAL_THREADS_AUTHORIZE_URL || 'https://threads.net/oauth/authorize',
  });
}
