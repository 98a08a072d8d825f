import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import type { Logger } from '../../lib/logger.js';
import { checkedKey, type ByteRange, type MediaStorage } from './media-storage.js';
import { loadS3Sdk, MediaStorageError, S3Storage } from './s3-storage.js';

export type { ByteRange, MediaStorage } from './media-storage.js';

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

/**
 * The media folder of a data folder: stored files in `files/`, uploads in progress in `tmp/` (src/app.ts), the
 * bytes of resumable uploads in `tus/` (./tus.ts).
 */
export function mediaFolders(dataDir: string): { files: string; tmp: string; tus: string } {
  return { files: join(dataDir, 'media', 'files'), tmp: join(dataDir, 'media', 'tmp'), tus: join(dataDir, 'media', 'tus') };
}

const storages = new Map<string, MediaStorage>();

/** Where a configuration's media live: a folder, or a bucket at its address (one client each: it keeps its connections). */
function placeOf(config: Config): string {
  const { storage: kind, s3 } = config.media;
  if (kind === 's3' && !s3) throw new Error('MEDIA_STORAGE=s3 needs S3_BUCKET');
  return kind === 's3' ? `s3 ${JSON.stringify(s3)}` : mediaFolders(config.dataDir).files;
}

/**
 * Start-up (src/boot.ts): opens the configured storage. The S3 SDK is loaded only when a bucket is configured
 * (it costs every other start a third of a second). A bucket that does not exist or credentials the store refuses
 * stop the process. Anything else is only logged: a store that does not answer may come back (media calls fail
 * until it does, everything else works meanwhile), and a refusal may be a policy without s3:ListBucket, which the
 * service does not need.
 */
export async function openStorage(config: Config, logger: Logger): Promise<MediaStorage> {
  const place = placeOf(config);
  const open = storages.get(place);
  if (open) return open;
  if (config.media.storage !== 's3') return storageFor(config);
  const storage = new S3Storage(config.media.s3!, await loadS3Sdk());
  try {
    await storage.verify();
  } catch (error) {
    if (error instanceof MediaStorageError && (error.failure === 'no_bucket' || error.failure === 'bad_credentials')) throw error;
    logger.warn({ err: error }, 'the media bucket could not be checked at start-up');
  }
  storages.set(place, storage);
  return storage;
}

/** The storage a configuration names; one per data folder, or per bucket and its address, in a process. */
export function storageFor(config: Config): MediaStorage {
  const place = placeOf(config);
  let storage = storages.get(place);
  if (!storage) {
    if (config.media.storage === 's3') throw new Error('the S3 media storage is opened at start-up (openStorage) before it is used');
    storage = new LocalDiskStorage(place);
    storages.set(place, storage);
  }
  return storage;
}

/** Spread over 1,024 folders by the id's last (random) characters, so no folder grows past what file systems like. */
export function storageKeyFor(mediaId: string): string {
  return `${mediaId.slice(-2)}/${mediaId}`;
}
