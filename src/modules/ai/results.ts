import { Readable } from 'node:stream';
import type { Uploadable } from 'openai';
import { discard, spool, SpoolLimitError } from '../../lib/spool.js';
import type { Services } from '../../services.js';
import { ownerItself } from '../auth/principal.js';
import { MediaRejectedError } from '../media/errors.js';
import type { MediaRow } from '../media/models.js';
import { mediaFile } from '../media/read.js';
import { fileUrl, storeMedia } from '../media/service.js';
import { mediaFolders, storageFor, storageKeyFor } from '../media/storage.js';
import type { Size } from './parameters.js';
import type { AiTaskResult } from './present.js';
import type { TaskRow } from './rows.js';

/** The provider's output could not become media (unreadable, refused by the media checks, gone): the task fails. */
export class ResultUnusableError extends Error {}

/**
 * Stores a provider's output through the media service, as an upload is stored: its type sniffed from the
 * bytes, probed, the size limits applied. Bytes that are not what they claim to be are refused there.
 */
export async function storeResult(services: Services, task: TaskRow, bytes: Readable | Buffer, filename: string): Promise<MediaRow> {
  const maxBytes = Math.max(...Object.values(services.config.media.maxBytes));
  let path: string | undefined;
  try {
    const source = Buffer.isBuffer(bytes) ? Readable.from([bytes]) : bytes;
    const file = await spool(source, mediaFolders(services.config.dataDir).tmp, maxBytes);
    path = file.path;
    // The task acts for its owner, within the profile checked when it was accepted.
    return await storeMedia(services, ownerItself(task.ownerId), task.profileId, { ...file, filename }, 'result');
  } catch (error) {
    if (error instanceof MediaRejectedError) throw new ResultUnusableError(`The provider's result was refused: ${error.detail}`);
    if (error instanceof SpoolLimitError) throw new ResultUnusableError(`The provider's result is larger than ${maxBytes} bytes.`);
    throw error;
  } finally {
    await discard(path);
  }
}

export function mediaResult(services: Services, row: MediaRow): AiTaskResult {
  return { text: null, variants: null, mediaId: row.id, url: fileUrl(services.config.publicUrl, row) };
}

/** An image cut (centred) to the aspect ratio asked for, in its own format. */
export async function cropImage(bytes: Buffer, crop: Size): Promise<Buffer> {
  try {
    // Imported on first use, not at every start.
    const { default: sharp } = await import('sharp');
    const image = sharp(bytes);
    const { format } = await image.metadata();
    const cropped = image.resize(crop.width, crop.height, { fit: 'cover', position: 'centre' });
    return await (format === 'jpeg' ? cropped.jpeg({ quality: 92 }) : format === 'webp' ? cropped.webp() : cropped.png()).toBuffer();
  } catch (error) {
    throw new ResultUnusableError(`The provider's image could not be read: ${(error as Error).message}`);
  }
}

/** The bytes of an image the provider answered by URL (older image models). */
export async function download(url: string, timeoutMs: number): Promise<Buffer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok)
    throw new ResultUnusableError(`The provider's result could not be downloaded (HTTP ${response.status}); it may have expired.`);
  return Buffer.from(await response.arrayBuffer());
}

/** A stored media file as an upload to the provider (a reference image). */
export async function referenceUpload(services: Services, mediaId: string): Promise<Uploadable> {
  const media = (await mediaFile(services.db, mediaId))!;
  const stream = await storageFor(services.config).read(storageKeyFor(mediaId));
  const { toFile } = await import('openai');
  return toFile(stream, media.filename ?? 'reference', { type: media.mimeType });
}
