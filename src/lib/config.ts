import { resolve } from 'node:path';
import { bool, int } from './env.js';
import { readAreaSettings, type AreaSettings } from '../modules/index.js';

/**
 * Where the service runs and what it talks to; every value comes from the environment. The areas' own settings
 * (`webhooks`, `publishing`, `media`, …) are read by each area (its `settings` in src/modules/<area>/index.ts).
 */
export interface Config extends AreaSettings {
  port: number;
  host: string;
  publicUrl: string;
  role: 'all' | 'api' | 'worker';
  dataDir: string;
  databaseUrl: string | undefined;
  embeddedPostgresPort: number;
  mongodbUrl: string | undefined;
  logLevel: string;
  sessionTtlSeconds: number;
  rateLimit: { points: number; windowSeconds: number };
  publicRateLimit: { points: number; windowSeconds: number };
  jsonBodyLimit: string;
  /** Take the client address from X-Forwarded-For (behind a load balancer). */
  trustProxy: boolean;
  version: string;
  /** Base64 of 32 bytes; unset: a key generated into the data folder. */
  encryptionKey: string | undefined;
  /** `auto`: platforms without a configured URL are served by the local sandbox; `off`: never start it. */
  sandbox: { mode: 'auto' | 'off'; port: number };
  /** Base URLs of the real platforms; a platform left unset uses the sandbox. */
  platformUrls: { botchat: string | undefined; chatappCloud: string | undefined };
  /** The instance's own chat app cloud API app; unset while the sandbox serves it, the sandbox's app is used. */
  chatappCloud: { appSecret: string | undefined; verifyToken: string | undefined };
  /** The driver of qrchat sessions (QRCHAT_DRIVER): only `sandbox` ships (src/platforms/qrchat/drivers.ts). */
  qrchat: { driver: string };
  /** App credentials of the OAuth platforms; a platform without them uses the sandbox. */
  oauthApps: {
    searchSuite: { clientId: string; clientSecret: string } | undefined;
    /** `verifyToken` answers the webhook handshake; unset, one is derived from the app secret. */
    socialNetwork: { clientId: string; clientSecret: string; verifyToken: string | undefined } | undefined;
    socialThreads: { clientId: string; clientSecret: string } | undefined;
    /** Login Kit app; hosts default to the real ones (SHORT_VIDEO_AUTHORIZE_URL, SHORT_VIDEO_API_URL). */
    shortVideo: { clientKey: string; clientSecret: string; authorizeUrl: string; apiUrl: string } | undefined;
    /** Business API developer app; hosts default to the real ones (SHORT_VIDEO_ADS_AUTH_URL, SHORT_VIDEO_ADS_API_URL). */
    shortVideoAds: { appId: string; secret: string; authUrl: string; apiUrl: string } | undefined;
  };
  /** Hosts and versions of the Graph-style APIs, used with their configured apps (versions drift: keep them settable). */
  graphApis: {
    socialNetwork: { apiUrl: string; dialogUrl: string; version: string };
    socialThreads: { apiUrl: string; authorizeUrl: string; version: string };
  };
}

function role(raw: string | undefined): Config['role'] {
  if (raw === undefined || raw === '' || raw === 'all') return 'all';
  if (raw === 'api' || raw === 'worker') return raw;
  throw new Error(`SOCIALGATE_ROLE must be all, api or worker, got "${raw}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', 8080, env);
  return {
    ...readAreaSettings(env),
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    role: role(env.SOCIALGATE_ROLE),
    dataDir: resolve(env.DATA_DIR || '.data'),
    databaseUrl: env.DATABASE_URL || undefined,
    embeddedPostgresPort: int('EMBEDDED_PG_PORT', 54329, env),
    mongodbUrl: env.MONGODB_URL || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    sessionTtlSeconds: int('SESSION_TTL_SECONDS', 14 * 24 * 3600, env),
    rateLimit: { points: int('RATE_LIMIT_PER_MINUTE', 600, env), windowSeconds: 60 },
    publicRateLimit: { points: int('PUBLIC_RATE_LIMIT_PER_MINUTE', 120, env), windowSeconds: 60 },
    jsonBodyLimit: env.JSON_BODY_LIMIT || '1mb',
    trustProxy: bool('TRUST_PROXY', env),
    version: env.npm_package_version || '0.1.0',
    encryptionKey: env.ENCRYPTION_KEY || undefined,
    sandbox: { mode: env.SANDBOX === 'off' ? 'off' : 'auto', port: int('SANDBOX_PORT', 8081, env) },
    platformUrls: { botchat: env.BOTCHAT_API_URL || undefined, chatappCloud: env.CHATAPP_CLOUD_API_URL || undefined },
    chatappCloud: { appSecret: env.CHATAPP_CLOUD_APP_SECRET || undefined, verifyToken: env.CHATAPP_CLOUD_VERIFY_TOKEN || undefined },
    qrchat: { driver: env.QRCHAT_DRIVER || 'sandbox' },
    oauthApps: {
      searchSuite: env.SEARCH_SUITE_CLIENT_ID && env.SEARCH_SUITE_CLIENT_SECRET
        ? { clientId: env.SEARCH_SUITE_CLIENT_ID, clientSecret: env.SEARCH_SUITE_CLIENT_SECRET } : undefined,
      socialNetwork: env.SOCIAL_NETWORK_APP_ID && env.SOCIAL_NETWORK_APP_SECRET
        ? { clientId: env.SOCIAL_NETWORK_APP_ID, clientSecret: env.SOCIAL_NETWORK_APP_SECRET, verifyToken: env.SOCIAL_NETWORK_VERIFY_TOKEN || undefined } : undefined,
      socialThreads: env.SOCIAL_THREADS_APP_ID && env.SOCIAL_THREADS_APP_SECRET
        ? { clientId: env.SOCIAL_THREADS_APP_ID, clientSecret: env.SOCIAL_THREADS_APP_SECRET } : undefined,
      shortVideo: env.SHORT_VIDEO_CLIENT_KEY && env.SHORT_VIDEO_CLIENT_SECRET ? {
        clientKey: env.SHORT_VIDEO_CLIENT_KEY, clientSecret: env.SHORT_VIDEO_CLIENT_SECRET,
        authorizeUrl: env.SHORT_VIDEO_AUTHORIZE_URL || 'https://www.tiktok.com/v2/auth/authorize/',
        apiUrl: (env.SHORT_VIDEO_API_URL || 'https://open.tiktokapis.com').replace(/\/$/, ''),
      } : undefined,
      shortVideoAds: env.SHORT_VIDEO_ADS_APP_ID && env.SHORT_VIDEO_ADS_APP_SECRET ? {
        appId: env.SHORT_VIDEO_ADS_APP_ID, secret: env.SHORT_VIDEO_ADS_APP_SECRET,
        authUrl: env.SHORT_VIDEO_ADS_AUTH_URL || 'https://business-api.tiktok.com/portal/auth',
        // The API version is part of this URL (v1.3 today): a new version is a configuration change.
        apiUrl: (env.SHORT_VIDEO_ADS_API_URL || 'https://business-api.tiktok.com/open_api/v1.3').replace(/\/$/, ''),
      } : undefined,
    },
    graphApis: {
      socialNetwork: {
        apiUrl: (env.SOCIAL_NETWORK_GRAPH_URL || 'https://graph.facebook.com').replace(/\/$/, ''),
        dialogUrl: (env.SOCIAL_NETWORK_DIALOG_URL || 'https://www.facebook.com').replace(/\/$/, ''),
        version: env.SOCIAL_NETWORK_API_VERSION || 'v25.0',
      },
      socialThreads: {
        apiUrl: (env.SOCIAL_THREADS_API_URL || 'https://graph.threads.net').replace(/\/$/, ''),
        authorizeUrl: env.SOCIAL_THREADS_AUTHORIZE_URL || 'https://threads.net/oauth/authorize',
        version: env.SOCIAL_THREADS_API_VERSION || 'v1.0',
      },
    },
  };
}
