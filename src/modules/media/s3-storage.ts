import type * as S3 from '@aws-sdk/client-s3';
import type * as S3Upload from '@aws-sdk/lib-storage';
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from './settings.js';
import { StorageUnavailableError } from './errors.js';
import { checkedKey, type ByteRange, type MediaStorage } from './media-storage.js';

const MIB = 1024 * 1024;
/**
 * One PutObject takes at most 5 GiB and cannot be retried once its stream is read, while media may be as large
 * as MEDIA_MAX_BODY_BYTES (1 GiB by default, settable past 5 GiB). So files go through the SDK's managed
 * upload: a single PutObject up to one part, a multipart upload above it, each part retried on its own.
 * Parts are buffered: 8 MiB × 4 in flight bounds one upload to 32 MiB of memory.
 */
const PART_SIZE = 8 * MIB;
const PARTS_IN_FLIGHT = 4;
/** S3's most parts in one multipart upload; larger files get larger parts. */
const MAX_PARTS = 10_000;

/** What went wrong with a call to the store, decided in one place (`classify`) from the SDK's name and status. */
export type StorageFailure = 'missing' | 'no_bucket' | 'bad_credentials' | 'denied' | 'unavailable';

export class MediaStorageError extends Error {
  constructor(
    readonly failure: StorageFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MediaStorageError';
  }
}

const BAD_CREDENTIALS = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'InvalidToken']);

/**
 * Never the message text: stores word their errors differently, but the SDK names S3's error codes and keeps
 * the HTTP status, and a HEAD answer (no body) has only its status (NotFound / 404).
 */
export function classify(error: unknown): StorageFailure {
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  const status = $metadata?.httpStatusCode;
  if (name === 'NoSuchBucket') return 'no_bucket';
  if (name === 'NoSuchKey' || name === 'NotFound' || status === 404) return 'missing';
  if (name && BAD_CREDENTIALS.has(name)) return 'bad_credentials';
  if (status === 401 || status === 403) return 'denied';
  return 'unavailable';
}

/** The parts of the AWS SDK the storage uses. */
export type S3Sdk = Pick<typeof S3, 'S3Client' | 'GetObjectCommand' | 'HeadObjectCommand' | 'DeleteObjectCommand'> &
  Pick<typeof S3Upload, 'Upload'>;

/** The SDK costs a start a third of a second: it is loaded only by an instance configured with a bucket. */
export async function loadS3Sdk(): Promise<S3Sdk> {
  const [s3, storage] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]);
  return {
    S3Client: s3.S3Client,
    GetObjectCommand: s3.GetObjectCommand,
    HeadObjectCommand: s3.HeadObjectCommand,
    DeleteObjectCommand: s3.DeleteObjectCommand,
    Upload: storage.Upload,
  };
}

/** Media files as objects of one bucket, under the same keys as on disk (behind S3_PREFIX). */
export class S3Storage implements MediaStorage {
  private readonly client: S3Client;

  constructor(
    private readonly settings: S3Settings,
    private readonly sdk: S3Sdk,
    client?: S3Client,
  ) {
    this.client =
      client ??
      new sdk.S3Client({
        region: settings.region,
        endpoint: settings.endpoint,
        forcePathStyle: settings.forcePathStyle,
        // A copy: the SDK marks the object it is given (where the keys came from), and the settings are shared.
        credentials: settings.credentials && { ...settings.credentials },
        requestHandler: {
          connectionTimeout: 10_000,
          // Every download in flight holds a socket for as long as its client reads: the SDK's 50 would queue them.
          httpAgent: { maxSockets: 512 },
          httpsAgent: { maxSockets: 512 },
        },
      });
  }

  private objectKey(key: string): string {
    const checked = checkedKey(key);
    return this.settings.prefix ? `${this.settings.prefix}/${checked}` : checked;
  }

  /**
   * The SDK's error, classified and named with the bucket and key, the original kept as its cause. A missing
   * object is the caller's to judge; anything else means the store cannot serve now (503 to a client).
   */
  private failed(action: string, key: string | null, error: unknown): MediaStorageError | StorageUnavailableError {
    const failure = classify(error);
    const where = `s3://${this.settings.bucket}/${key === null ? '' : this.objectKey(key)}`;
    const code = (error as { name?: string } | null)?.name ?? 'Error';
    const storageError = new MediaStorageError(failure, `${action} ${where} failed (${failure}: ${code})`, { cause: error });
    return failure === 'missing' ? storageError : new StorageUnavailableError(storageError);
  }

  async put(key: string, tempPath: string): Promise<void> {
    const { size } = await stat(tempPath);
    const body = createReadStream(tempPath);
    const upload = new this.sdk.Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.objectKey(key), Body: body },
      partSize: Math.max(PART_SIZE, Math.ceil(size / MAX_PARTS)),
      queueSize: PARTS_IN_FLIGHT,
      // A failed multipart upload is aborted, so no parts linger (and are billed) in the bucket.
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      throw this.failed('Uploading to', key, error);
    } finally {
      // An aborted upload stops reading halfway: close the file either way.
      body.destroy();
    }
    // The temporary file is ours once handed over, as a rename makes it on disk.
    await rm(tempPath, { force: true });
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    let answer;
    try {
      // The GET is answered (headers) before this returns, so a missing object fails here, before our answer starts.
      answer = await this.client.send(
        new this.sdk.GetObjectCommand({
          Bucket: this.settings.bucket,
          Key: this.objectKey(key),
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
      );
    } catch (error) {
      throw this.failed('Reading', key, error);
    }
    if (!(answer.Body instanceof Readable))
      throw new MediaStorageError('unavailable', `Reading s3://${this.settings.bucket}/${this.objectKey(key)} gave no stream`);
    return answer.Body;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (classify(error) === 'missing') return null;
      throw this.failed('Looking up', key, error);
    }
  }

  async delete(key: string): Promise<void> {
    try {
      // S3 answers 204 for a key that holds nothing, so deleting twice is fine, as `rm --force` is on disk.
      await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }));
    } catch (error) {
      throw this.failed('Deleting', key, error);
    }
  }

  /**
   * Start-up check: reads a key that holds nothing. "No such key" means the bucket is there and the
   * credentials are good, with no more permission than the service uses (HeadBucket would need s3:ListBucket;
   * without it, S3 answers this read with AccessDenied instead, so that alone is no proof of a wrong setting).
   */
  async verify(): Promise<void> {
    try {
      await this.client.send(
        new this.sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey('start-check'), Range: 'bytes=0-0' }),
      );
    } catch (error) {
      const failure = classify(error);
      if (failure === 'missing') return;
      const at = this.settings.endpoint ? ` at ${this.settings.endpoint}` : ` in ${this.settings.region}`;
      if (failure === 'no_bucket') {
        throw new MediaStorageError(failure, `The S3 bucket "${this.settings.bucket}" (S3_BUCKET) does not exist${at}`, { cause: error });
      }
      if (failure === 'bad_credentials') {
        throw new MediaStorageError(
          failure,
          `The store${at} refuses the S3 credentials (S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or the SDK's default chain)`,
          { cause: error },
        );
      }
      throw this.failed('Checking', 'start-check', error);
    }
  }

  close(): void {
    this.client.destroy();
  }
}
