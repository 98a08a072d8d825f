import { baseUrl, configured, type SettingsRead, unconfigured } from '../settings.js';

export interface ChatappCloudSettings {
  /** Graph base URL with its version, e.g. https://graph.facebook.com/v25.0. */
  apiUrl: string;
  /** The instance's own app: its secret checks webhook signatures; unset, only accounts with their own app work. */
  appSecret: string | undefined;
  /** Answers the GET handshake; unset, no handshake passes and no alternate callback URL is set. */
  verifyToken: string | undefined;
}

/** The API URL configures the platform; the app's secret and verify token, where set, also replace the sandbox's. */
export function chatappCloudSettings(env: NodeJS.ProcessEnv): SettingsRead<ChatappCloudSettings> {
  const apiUrl = baseUrl(env.CHATAPP_CLOUD_API_URL);
  const appSecret = env.CHATAPP_CLOUD_APP_SECRET || undefined;
  const verifyToken = env.CHATAPP_CLOUD_VERIFY_TOKEN || undefined;
  if (apiUrl) return configured({ apiUrl, appSecret, verifyToken });
  return unconfigured('set CHATAPP_CLOUD_API_URL (with CHATAPP_CLOUD_APP_SECRET and CHATAPP_CLOUD_VERIFY_TOKEN for its webhooks)', {
    ...(appSecret ? { appSecret } : {}),
    ...(verifyToken ? { verifyToken } : {}),
  });
}
