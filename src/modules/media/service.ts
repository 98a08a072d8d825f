import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import type { Knex } from 'knex';
import type { Db } from '../../db/database.js';
import type { UploadedFile } from '../../http/multipart.js';
import type { MediaKind } from './settings.js';
import { NotFoundError, ProfileOutOfScopeError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { UnknownProfileError } from '../accounts/errors.js';
import { ownedProfileIds } from '../accounts/api.js';
import { assertProfileInScope, profileScope, type Principal } from '../auth/principal.js';
import { detectType, MP4_AUDIO, type MediaType } from './detect.js';
import { formatBytes, MediaRejectedError } from './errors.js';
import { MediaRow } from './models.js';
import { probe, type Probed } from './probe.js';
import { storageFor, storageKeyFor } from './storage.js';

type Media = components['schemas']['Media'];

export function fileUrl(publicUrl: string, row: Pick<MediaRow, 'id' | 'token'>): string {
  return `${publicUrl}/media/${row.id}/file?token=${row.token}`;
}

export function presentMedia(row: MediaRow, publicUrl: string): Media {
  return {
    id: row.id,
    profileId: row.profileId,
    kind: row.kind,
    mimeType: row.mimeType,
    size: Number(row.size),
    width: row.width,
    height: row.height,
    durationMs: row.durationMs,
    codec: row.codec,
    frameRate: row.frameRate,
    sha256: row.sha256,
    filename: row.filename,
    url: fileUrl(publicUrl, row),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * The profile new media belongs to: one of the owner's, within the key's scope; none (the owner's as a
 * whole) only for callers that may reach every profile.
 */
export async function profileForUpload(db: Db, principal: Principal, profileId: string | undefined): Promise<string | null> {
  if (!profileId) {
    if (profileScope(principal))
      throw new ProfileOutOfScopeError('A profile-restricted API key must name one of its profiles in profileId.');
    return null;
  }
  assertProfileInScope(principal, profileId);
  if (!(await ownedProfileIds(db, principal.ownerId, [profileId])).has(profileId))
    throw new UnknownProfileError([{ id: profileId, path: 'body/profileId' }]);
  return profileId;
}

const NOUNS: Record<MediaKind, [string, string]> = {
  image: ['image', 'images'],
  gif: ['GIF', 'GIFs'],
  video: ['video', 'videos'],
  audio: ['audio file', 'audio files'],
  document: ['document', 'documents'],
};

function assertWithinLimit(services: Services, kind: MediaKind, size: number): void {
  const limit = services.config.media.maxBytes[kind];
  if (size <= limit) return;
  const [one, many] = NOUNS[kind];
  throw new MediaRejectedError('too_large', `The ${one} is ${formatBytes(size)}; ${many} may be at most ${formatBytes(limit)}.`);
}

/** The type and properties of a file, read from its bytes, with every rule of the contract applied. */
async function inspect(services: Services, file: UploadedFile): Promise<{ type: MediaType; probed: Probed }> {
  if (file.size === 0) throw new MediaRejectedError('unreadable', 'The file is empty.');
  let type = await detectType(file.path);
  // Checked before probing: an over-sized file is refused without being read further.
  assertWithinLimit(services, type.kind, file.size);
  const probed = await probe(file.path, type, services.config.media.ffprobePath);
  if (type.demuxer && !probed.hasVideo && !probed.hasAudio) {
    throw new MediaRejectedError(
      'unreadable',
      `The file looks like ${type.label} but cannot be read: no picture or sound was found in it.`,
    );
  }
  if (type.kind === 'video' && !probed.hasVideo) {
    if (type.demuxer === 'mov' && probed.hasAudio && type.mimeType === 'video/mp4') {
      type = MP4_AUDIO;
      assertWithinLimit(services, type.kind, file.size);
    } else {
      throw new MediaRejectedError('unreadable', `The ${type.label} file has no video stream.`);
    }
  }
  if (type.kind === 'audio' && !probed.hasAudio) throw new MediaRejectedError('unreadable', `The ${type.label} file has no audio stream.`);
  return { type, probed };
}

/**
 * Stores an uploaded or fetched file: inspects it, moves it into storage under a new id and records it with
 * an unguessable read token. `field` is the member problems point at (`body/file` or `body/url`). `alongside`
 * runs in the transaction that inserts the media, so that what it writes and the media are made together.
 */
export async function storeMedia(
  services: Services,
  principal: Principal,
  profileId: string | null,
  file: UploadedFile,
  field = 'body/file',
  alongside?: (trx: Knex.Transaction, media: MediaRow) => Promise<void>,
): Promise<MediaRow> {
  let inspected: Awaited<ReturnType<typeof inspect>>;
  try {
    inspected = await inspect(services, file);
  } catch (error) {
    throw error instanceof MediaRejectedError && field !== 'body/file' ? error.at(field) : error;
  }
  const { type, probed } = inspected;
  const id = newId('media');
  const storageKey = storageKeyFor(id);
  const storage = storageFor(services.config);
  await storage.put(storageKey, file.path);
  try {
    const stored = await services.db.transaction(async (trx) => {
      const row = await MediaRow.query(trx).insertAndFetch({
        id,
        ownerId: principal.ownerId,
        profileId,
        kind: type.kind,
        mimeType: type.mimeType,
        size: file.size,
        width: probed.width,
        height: probed.height,
        durationMs: probed.durationMs,
        codec: probed.codec,
        frameRate: probed.frameRate,
        sha256: file.sha256,
        filename: file.filename,
        storageKey,
        // 256 bits: the URL is the only thing that guards the file.
        token: randomBytes(32).toString('base64url'),
      });
      await alongside?.(trx, row);
      return row;
    });
    services.usage.record(principal.ownerId, profileId, 'mediaStorageBytes', file.size);
    return stored;
  } catch (error) {
    await storage.delete(storageKey);
    throw error;
  }
}

/**
 * The owner's media, or 404; 403 when the caller's key is restricted to other profiles (or the media has none).
 * `forUpdate`: locked until the caller's transaction ends.
 */
export async function findMedia(db: Db, principal: Principal, id: string, { forUpdate = false } = {}): Promise<MediaRow> {
  const query = MediaRow.query(db).findOne({ id, ownerId: principal.ownerId });
  if (forUpdate) query.forUpdate();
  const row = await query;
  if (!row) throw new NotFoundError('media');
  if (row.profileId) assertProfileInScope(principal, row.profileId);
  else if (profileScope(principal))
    throw new ProfileOutOfScopeError('This media belongs to no profile; a profile-restricted API key cannot read it.');
  return row;
}

/** The media a public file URL names, or 404 for an unknown id and a wrong token alike. */
export async function findByToken(db: Db, id: string, token: string): Promise<MediaRow> {
  const row = await MediaRow.query(db).findOne({ id });
  const given = Buffer.from(token);
  const expected = Buffer.from(row?.token ?? '');
  // Compared in constant time, so the token cannot be guessed a character at a time.
  if (!row || given.length !== expected.length || !timingSafeEqual(given, expected)) throw new NotFoundError('media');
  return row;
}
