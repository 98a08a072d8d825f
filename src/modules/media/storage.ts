import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../lib/config.js';
import type { Logger } from '../../lib/logger.js';
import { MediaStorageError, S3Storage } from './s3-storage.js';

/** An inclusive byte range, as HTTP ranges are. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where media bytes live. Keys are chosen by the service (never by a client). Two implementations: the local
 * disk, and an S3-compatible bucket (./s3-storage.ts), whose `put` uploads the finished temporary file and
 * whose `read` is a ranged GET.
 */
export interface MediaStorage {
  /** Takes over a finished temporary file (it is moved, not copied, where possible). */
  put(key: string, tempPath: string): Promise<void>;
  /** The bytes, or one range of them. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The stored size, or null when the key holds nothing. */
  stat(key: string): Promise<{ size: number } | null>;
  delete(key: string): Promise<void>;
}

/** A key as `storageKeyFor` makes them: folder names of safe characters, so none climbs out of its root. */
export function checkedKey(key: string): string {
  if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(key)) throw new Error(`invalid storage key ${key}`);
  return key;
}

/** Files under one folder, each key a relative path; the temporary folder is on the same disk, so `put` is a rename. */
export class LocalDiskStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    return join(this.root, checkedKey(key));
  }

  async put(key: string, tempPath: string): Promise<void> {
    const target = this.path(key);
    await mkdir(dirname(target), { recursive: true });
    try {
      await rename(tempPath, target);
    } catch (error) {
      // Another file system (a temporary folder set elsewhere): copy, then drop the original.
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      await copyFile(tempPath, target);
      await rm(tempPath, { force: true });
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const stream = createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
    // Open errors (a file removed under us) surface here rather than halfway through an answer.
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    return stream;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      return { size: (await stat(this.path(key))).size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}

/** The media folder of a data folder: stored files in `files/`, uploads in progress in `tmp/` (src/app.ts). */
export function mediaFolders(dataDir: string): { files: string; tmp: string } {
  return { files: join(dataDir, 'media', 'files'), tmp: join(dataDir, 'media', 'tmp') };
}

const storages = new Map<string, MediaStorage>();

/** The storage a configuration names; one per data folder, or per bucket and its address, in a process. */
export function storageFor(config: Config): MediaStorage {
  const { storage: kind, s3 } = config.media;
  if (kind === 's3' && !s3) throw new Error('MEDIA_STORAGE=s3 needs S3_BUCKET');
  // One S3 client per bucket and address: it keeps its connections open for the next call.
  const place = kind === 's3' && s3 ? `s3 ${JSON.stringify(s3)}` : mediaFolders(config.dataDir).files;
  let storage = storages.get(place);
  if (!storage) {
    storage = kind === 's3' && s3 ? new S3Storage(s3) : new LocalDiskStorage(place);
    storages.set(place, storage);
  }
  return storage;
}

/**
 * Start-up (src/boot.ts): a bucket that does not exist or credentials the store refuses stop the process. Anything
 * else is only logged: a store that does not answer may come back (media calls fail until it does, everything
 * else works meanwhile), and a refusal may be a policy without s3:ListBucket, which the service does not need.
 */
export async function verifyStorage(config: Config, logger: Logger): Promise<void> {
  const storage = storageFor(config);
  if (!(storage instanceof S3Storage)) return;
  try {
    await storage.verify();
  } catch (error) {
    if (error instanceof MediaStorageError && (error.failure === 'no_bucket' || error.failure === 'bad_credentials')) throw error;
    logger.warn({ err: error }, 'the media bucket could not be checked at start-up');
  }
}

/** Spread over 1,024 folders by the id's last (random) characters, so no folder grows past what file systems like. */
export function storageKeyFor(mediaId: string): string {
  return `${mediaId.slice(-2)}/${mediaId}`;
}
