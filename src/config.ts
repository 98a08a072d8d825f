import { type DatabaseSettings, readDatabaseSettings } from './db/open.js';
import { bool, int } from './lib/env.js';
import { logLevelOf } from './lib/logger.js';
import { readAreaSettings, type AreaSettings } from './modules/index.js';
import { type PlatformSettings, readPlatformSettings } from './platforms/registry.js';

/**
 * Where the service runs and what it talks to; every value comes from the environment. The areas' own settings
 * (`webhooks`, `publishing`, `media`, …) are read by each area (its `settings` in src/modules/<area>/index.ts).
 */
export interface Config extends AreaSettings, DatabaseSettings {
  port: number;
  host: string;
  publicUrl: string;
  role: 'all' | 'api' | 'worker';
  /** Connections to PostgreSQL this process opens at most (its API requests and workers share them). */
  databasePoolMax: number;
  mongodbUrl: string | undefined;
  logLevel: string;
  sessionTtlSeconds: number;
  rateLimit: { points: number; windowSeconds: number };
  publicRateLimit: { points: number; windowSeconds: number };
  /** Platforms' webhooks per client address (a platform sends every account's from a few addresses). */
  platformWebhookRateLimit: { points: number; windowSeconds: number };
  jsonBodyLimit: string;
  /** Take the client address from X-Forwarded-For (behind a load balancer). */
  trustProxy: boolean;
  version: string;
  /** Base64 of 32 bytes; unset: a key generated into the data folder. */
  encryptionKey: string | undefined;
  /**
   * `auto`: platforms left unconfigured are served by the local sandbox; `off`: never start it, and a platform
   * left unconfigured is not available.
   */
  sandbox: { mode: 'auto' | 'off'; port: number };
  /** Each platform's settings, read by its own module (src/platforms/<platform>/settings.ts). */
  platforms: PlatformSettings;
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
    ...readDatabaseSettings(env),
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    role: role(env.SOCIALGATE_ROLE),
    databasePoolMax: int('DATABASE_POOL_MAX', 20, env),
    mongodbUrl: env.MONGODB_URL || undefined,
    logLevel: logLevelOf(env),
    sessionTtlSeconds: int('SESSION_TTL_SECONDS', 14 * 24 * 3600, env),
    rateLimit: { points: int('RATE_LIMIT_PER_MINUTE', 600, env), windowSeconds: 60 },
    publicRateLimit: { points: int('PUBLIC_RATE_LIMIT_PER_MINUTE', 120, env), windowSeconds: 60 },
    platformWebhookRateLimit: { points: int('PLATFORM_WEBHOOK_RATE_LIMIT_PER_MINUTE', 60_000, env), windowSeconds: 60 },
    jsonBodyLimit: env.JSON_BODY_LIMIT || '1mb',
    trustProxy: bool('TRUST_PROXY', env),
    version: env.npm_package_version || '0.1.0',
    encryptionKey: env.ENCRYPTION_KEY || undefined,
    sandbox: { mode: env.SANDBOX === 'off' ? 'off' : 'auto', port: int('SANDBOX_PORT', 8081, env) },
    platforms: readPlatformSettings(env),
  };
}
