import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A file written to a temporary folder, with what was learnt while writing it. */
export interface SpooledFile {
  path: string;
  size: number;
  sha256: string;
}

export class SpoolLimitError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
  }
}

/**
 * Writes a stream to a new file in `dir`, hashing and counting on the way, so large uploads never sit in
 * memory and are read once. More than `maxBytes` stops it with SpoolLimitError; any failure removes the file.
 */
export async function spool(source: Readable, dir: string, maxBytes: number, signal?: AbortSignal): Promise<SpooledFile> {
  await mkdir(dir, { recursive: true });
  // Stopped while the folder was made: no file is created at all.
  signal?.throwIfAborted();
  const path = join(dir, `${Date.now()}-${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new SpoolLimitError(maxBytes));
      hash.update(chunk);
      return done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(path, { flags: 'wx' }), ...(signal ? [{ signal }] : []));
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return { path, size, sha256: hash.digest('hex') };
}

/** Removes a temporary file that may have been moved away already. */
export async function discard(path: string | undefined): Promise<void> {
  if (path) await rm(path, { force: true });
}
