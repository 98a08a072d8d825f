import { resolve } from 'node:path';
import { type PlatformSettings, readPlatformSettings } from '../platforms/registry.js';

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
  /** Take the client address from X-Forwarded-For (behind a load balancer). */
  trustProxy: boolean;
  version: string;
  /** Base64 of 32 bytes; unset: a key generated into the data folder. */
  encryptionKey: string | undefined;
  webhooks: WebhookSettings;
  publishing: PublishingSettings;
  media: MediaSettings;
  /**
   * `auto`: platforms left unconfigured are served by the local sandbox; `off`: never start it, and a platform
   * left unconfigured is not available.
   */
  sandbox: { mode: 'auto' | 'off'; port: number };
  /** Each platform's settings, read by its own module (src/platforms/<platform>/settings.ts). */
  platforms: PlatformSettings;
}

export interface WebhookSettings {
  /** Private ranges an operator allows as destinations (CIDR), beside public addresses. */
  allowedCidrs: string[];
  /** Extra trusted CA certificates (PEM file) for destinations with a private CA. */
  caFile: string | undefined;
  timeoutMs: number;
  /** Seconds to wait before each attempt after a failure: attempt n waits schedule[n-1]. */
  retryScheduleSeconds: number[];
  /** A hook whose deliveries all failed for this long is disabled. */
  disableAfterFailingSeconds: number;
  /** How long a worker holds a delivery it is sending before another may take it over. */
  leaseSeconds: number;
  /** Attempts in flight per worker process. */
  concurrency: number;
  testIntervalSeconds: number;
}

export type MediaKind = 'image' | 'gif' | 'video' | 'audio' | 'document';

export interface MediaSettings {
  /** `local`: files under DATA_DIR/media; `s3`: an S3-compatible bucket (src/modules/media/s3-storage.ts). */
  storage: 'local' | 's3';
  /** The bucket and how to reach it; set exactly when `storage` is `s3`. */
  s3: S3Settings | undefined;
  /** Largest multipart upload body and largest imported file, in bytes. */
  maxBodyBytes: number;
  /** Largest file of each kind, in bytes. */
  maxBytes: Record<MediaKind, number>;
  /** Deadline of a whole URL import (connect, answer and body). */
  importTimeoutMs: number;
  /** An ffprobe binary to use instead of the one the @ffprobe-installer package ships. */
  ffprobePath: string | undefined;
}

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible store (MinIO, R2, …); unset: AWS S3 itself. */
  endpoint: string | undefined;
  /** `https://host/bucket/key` rather than `https://bucket.host/key` (most self-hosted stores need it). */
  forcePathStyle: boolean;
  /** Put before every key, without slashes at either end ('' for none). */
  prefix: string;
  /** Unset: the SDK's default chain (AWS_* variables, shared profile, instance or task role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
}

const MIB = 1024 * 1024;

export interface PublishingSettings {
  /** Targets being published at once per worker process. */
  concurrency: number;
  /** How long a worker holds a target it is publishing before another may take it over (and reconcile it). */
  leaseSeconds: number;
  /** Seconds before each retry of a passing failure (rate limit, platform down); then the target fails. */
  retryScheduleSeconds: number[];
  /** The soonest a post may be scheduled, from now. */
  minScheduleAheadSeconds: number;
}

const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

function list(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((item) => item.trim()).filter(Boolean);
}

/** `env` is required: loadConfig(env) reads only its argument, never process.env behind its back. */
function int(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** A comma-separated list of non-negative integers (a retry schedule in seconds). */
function intList(name: string, fallback: number[], env: NodeJS.ProcessEnv): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = list(raw).map(Number);
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value < 0)) {
    throw new Error(`${name} must be a comma-separated list of non-negative integers, got "${raw}"`);
  }
  return values;
}

function bool(name: string, env: NodeJS.ProcessEnv): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function role(raw: string | undefined): Config['role'] {
  if (raw === undefined || raw === '' || raw === 'all') return 'all';
  if (raw === 'api' || raw === 'worker') return raw;
  throw new Error(`SOCIALGATE_ROLE must be all, api or worker, got "${raw}"`);
}

function mediaStorage(raw: string | undefined): MediaSettings['storage'] {
  if (raw === undefined || raw === '' || raw === 'local') return 'local';
  if (raw === 's3') return 's3';
  throw new Error(`MEDIA_STORAGE must be local or s3, got "${raw}"`);
}

/** The S3_* settings, read only for MEDIA_STORAGE=s3 (a stray S3_* variable does not stop a local start). */
function s3Settings(storage: MediaSettings['storage'], env: NodeJS.ProcessEnv): S3Settings | undefined {
  if (storage !== 's3') return undefined;
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) throw new Error('MEDIA_STORAGE=s3 needs S3_BUCKET, the bucket that holds the media files');
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (endpoint && !/^https?:\/\/[^/\s]+/.test(endpoint)) throw new Error(`S3_ENDPOINT must be an http(s) URL, got "${endpoint}"`);
  // AWS needs the bucket's own region; S3-compatible stores mostly take any, and us-east-1 is their usual default.
  const region = env.S3_REGION?.trim() || env.AWS_REGION?.trim() || (endpoint ? 'us-east-1' : '');
  if (!region) throw new Error("MEDIA_STORAGE=s3 needs S3_REGION, the bucket's region (e.g. eu-west-1), unless S3_ENDPOINT names another store");
  const prefix = (env.S3_PREFIX ?? '').trim().replace(/^\/+|\/+$/g, '');
  if ((prefix && !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(prefix)) || /(^|\/)\.\.?(\/|$)/.test(prefix)) {
    throw new Error(`S3_PREFIX must be folder names of letters, digits, '.', '_' and '-' separated by '/', got "${env.S3_PREFIX}"`);
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error(`${accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} must be set with ${accessKeyId ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'} (or neither, for the AWS SDK's default credentials)`);
  }
  return {
    bucket, region, endpoint: endpoint?.replace(/\/$/, ''), forcePathStyle: bool('S3_FORCE_PATH_STYLE', env), prefix,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int('PORT', 8080, env);
  const storage = mediaStorage(env.MEDIA_STORAGE);
  return {
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
    webhooks: {
      allowedCidrs: list(env.WEBHOOK_ALLOWED_CIDRS),
      caFile: env.WEBHOOK_CA_FILE || undefined,
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 15_000, env),
      retryScheduleSeconds: intList('WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE, env),
      disableAfterFailingSeconds: int('WEBHOOK_DISABLE_AFTER_SECONDS', 5 * 24 * 3600, env),
      leaseSeconds: int('WEBHOOK_LEASE_SECONDS', 60, env),
      concurrency: int('WEBHOOK_CONCURRENCY', 200, env),
      testIntervalSeconds: 30,
    },
    media: {
      storage,
      s3: s3Settings(storage, env),
      maxBodyBytes: int('MEDIA_MAX_BODY_BYTES', 1024 * MIB, env),
      maxBytes: {
        image: int('MEDIA_MAX_IMAGE_BYTES', 20 * MIB, env),
        gif: int('MEDIA_MAX_GIF_BYTES', 20 * MIB, env),
        video: int('MEDIA_MAX_VIDEO_BYTES', 1024 * MIB, env),
        audio: int('MEDIA_MAX_AUDIO_BYTES', 100 * MIB, env),
        document: int('MEDIA_MAX_DOCUMENT_BYTES', 100 * MIB, env),
      },
      importTimeoutMs: int('MEDIA_IMPORT_TIMEOUT_MS', 10 * 60_000, env),
      ffprobePath: env.FFPROBE_PATH || undefined,
    },
    publishing: {
      concurrency: int('PUBLISH_CONCURRENCY', 200, env),
      leaseSeconds: int('PUBLISH_LEASE_SECONDS', 90, env),
      retryScheduleSeconds: intList('PUBLISH_RETRY_SCHEDULE', [10, 60, 300, 900], env),
      minScheduleAheadSeconds: 60,
    },
    sandbox: { mode: env.SANDBOX === 'off' ? 'off' : 'auto', port: int('SANDBOX_PORT', 8081, env) },
    platforms: readPlatformSettings(env),
  };
}
