import { resolve } from 'node:path';

/** Where the service runs and what it talks to; every value comes from the environment. */
export interface Config {
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
  version: string;
}

function int(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function role(raw: string | undefined): Config['role'] {
  if (raw === undefined || raw === '' || raw === 'all') return 'all';
  if (raw === 'api' || raw === 'worker') return raw;
  throw new Error(`SOCIALGATE_ROLE must be all, api or worker, got "${raw}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', 8080);
  return {
    port,
    host: env.HOST || '127.0.0.1',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    role: role(env.SOCIALGATE_ROLE),
    dataDir: resolve(env.DATA_DIR || '.data'),
    databaseUrl: env.DATABASE_URL || undefined,
    embeddedPostgresPort: int('EMBEDDED_PG_PORT', 54329),
    mongodbUrl: env.MONGODB_URL || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    sessionTtlSeconds: int('SESSION_TTL_SECONDS', 14 * 24 * 3600),
    rateLimit: { points: int('RATE_LIMIT_PER_MINUTE', 600), windowSeconds: 60 },
    publicRateLimit: { points: int('PUBLIC_RATE_LIMIT_PER_MINUTE', 120), windowSeconds: 60 },
    jsonBodyLimit: env.JSON_BODY_LIMIT || '1mb',
    version: env.npm_package_version || '0.1.0',
  };
}
