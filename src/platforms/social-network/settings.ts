import { appCredentials, baseUrl, configured, type SettingsRead, unconfigured } from '../settings.js';

export interface SocialNetworkSettings {
  appId: string;
  appSecret: string;
  /** Answers the webhook handshake; unset, one is derived from the app secret (the app subscription sends it). */
  verifyToken: string | undefined;
  /** The Graph API's host, e.g. https://graph.facebook.com. */
  graphHost: string;
  /** The login dialog's host, e.g. https://www.facebook.com. */
  dialogHost: string;
  /** The Graph API version (versions drift: keep it settable). */
  version: string;
}

export const DEFAULT_VERSION = 'v25.0';

/** The app configures the platform; its hosts default to the real ones, and the version applies to the sandbox too. */
export function socialNetworkSettings(env: NodeJS.ProcessEnv): SettingsRead<SocialNetworkSettings> {
  const version = env.SOCIAL_NETWORK_API_VERSION || DEFAULT_VERSION;
  const app = appCredentials(env, 'SOCIAL_NETWORK_APP_ID', 'SOCIAL_NETWORK_APP_SECRET');
  if (!app) return unconfigured('set SOCIAL_NETWORK_APP_ID and SOCIAL_NETWORK_APP_SECRET', { version });
  return configured({
    appId: app.id,
    appSecret: app.secret,
    verifyToken: env.SOCIAL_NETWORK_VERIFY_TOKEN || undefined,
    version,
    graphHost: baseUrl(env.SOCIAL_NETWORK_GRAPH_URL, 'https://graph.facebook.com')!,
    dialogHost: baseUrl(env.SOCIAL_NETWORK_DIALOG_URL, 'https://www.facebook.com')!,
  });
}
