import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Config } from '../../lib/config.js';

/** An inclusive byte range, as HTTP ranges are. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where media bytes live. Keys are chosen by the service (never by a client). The local disk is the only
 * implementation so far; an object store (S3-compatible) implements the same four calls, `put` uploading the
 * finished temporary file and `read` asking for a ranged GET.
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

/** Files under one folder, each key a relative path; the temporary folder is on the same disk, so `put` is a rename. */
export class LocalDiskStorage implements MediaStorage {
  constructor(private readonly root: string) {}

  private path(key: string): string {
    if (!/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(key)) throw new Error(`invalid storage key ${key}`);
    return join(this.root, key);
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

/** The storage a configuration names; one per data folder in a process. */
export function storageFor(config: Config): MediaStorage {
  const { files } = mediaFolders(config.dataDir);
  let storage = storages.get(files);
  if (!storage) {
    storage = new LocalDiskStorage(files);
    storages.set(files, storage);
  }
  return storage;
}

/** Spread over 1,024 folders by the id's last (random) characters, so no folder grows past what file systems like. */
export function storageKeyFor(mediaId: string): string {
  return `${mediaId.slice(-2)}/${mediaId}`;
}
