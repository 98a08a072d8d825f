import { bool, int } from '../../lib/env.js';

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
  /** How long a resumable upload may take from its creation; unfinished ones are then removed with their bytes. */
  uploadExpiryMs: number;
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
  if (!region)
    throw new Error("MEDIA_STORAGE=s3 needs S3_REGION, the bucket's region (e.g. eu-west-1), unless S3_ENDPOINT names another store");
  const prefix = (env.S3_PREFIX ?? '').trim().replace(/^\/+|\/+$/g, '');
  if ((prefix && !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(prefix)) || /(^|\/)\.\.?(\/|$)/.test(prefix)) {
    throw new Error(`S3_PREFIX must be folder names of letters, digits, '.', '_' and '-' separated by '/', got "${env.S3_PREFIX}"`);
  }
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error(
      `${accessKeyId ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'} must be set with ${accessKeyId ? 'S3_ACCESS_KEY_ID' : 'S3_SECRET_ACCESS_KEY'} (or neither, for the AWS SDK's default credentials)`,
    );
  }
  return {
    bucket,
    region,
    endpoint: endpoint?.replace(/\/$/, ''),
    forcePathStyle: bool('S3_FORCE_PATH_STYLE', env),
    prefix,
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}

export function mediaSettings(env: NodeJS.ProcessEnv): { media: MediaSettings } {
  const storage = mediaStorage(env.MEDIA_STORAGE);
  return {
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
      uploadExpiryMs: int('MEDIA_UPLOAD_EXPIRY_HOURS', 24, env) * 3600_000,
    },
  };
}
