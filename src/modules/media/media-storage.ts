import type { Readable } from 'node:stream';

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
