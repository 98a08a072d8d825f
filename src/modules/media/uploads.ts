import type { Readable } from 'node:stream';
import type { DataStore } from '@tus/utils';
import type { components } from '../../../generated/api.js';
import type { Db } from '../../db/database.js';
import { problemBody } from '../../http/problem.js';
import { ApiError, NotFoundError, ProfileOutOfScopeError } from '../../lib/errors.js';
import { discard, spool, type SpooledFile } from '../../lib/spool.js';
import type { Services } from '../../services.js';
import { assertProfileInScope, ownerItself, profileScope, type Principal } from '../auth/principal.js';
import { MediaRejectedError, ResumableUploadRefusedError } from './errors.js';
import { storeMedia } from './service.js';
import { mediaFolders } from './storage.js';

type ResumableUpload = components['schemas']['ResumableUpload'];

/** A tus store that can give back the bytes it holds (the file and S3 stores both can). */
export type UploadStore = DataStore & { read(id: string): Readable | Promise<Readable> };

export interface UploadRow {
  id: string;
  ownerId: string;
  profileId: string | null;
  filename: string | null;
  /** A bigint column: PostgreSQL hands it back as a string. */
  length: number | string | null;
  status: ResumableUpload['status'];
  claimedAt: Date | null;
  mediaId: string | null;
  error: Record<string, unknown> | null;
  createdAt: Date;
  expiresAt: Date;
}

/** A finish that has not marked its upload done in this long died with its process: another may take over. */
const FINISH_LEASE_MS = 15 * 60_000;

export async function recordUpload(
  db: Db,
  upload: Pick<UploadRow, 'id' | 'ownerId' | 'profileId' | 'filename' | 'length'>,
  expiryMs: number,
): Promise<void> {
  await db('mediaUploads').insert({ ...upload, expiresAt: new Date(Date.now() + expiryMs) });
}

/** The owner's unexpired upload, or 404; 403 outside a restricted key's profiles (or for an upload of no profile). */
export async function findUpload(db: Db, principal: Principal, id: string): Promise<UploadRow> {
  const row = (await db('mediaUploads').where({ id, ownerId: principal.ownerId }).where('expiresAt', '>', new Date()).first()) as
    UploadRow | undefined;
  if (!row) throw new NotFoundError('upload');
  if (row.profileId) assertProfileInScope(principal, row.profileId);
  else if (profileScope(principal))
    throw new ProfileOutOfScopeError('This upload belongs to no profile; a profile-restricted API key cannot reach it.');
  return row;
}

export function presentUpload(row: UploadRow, progress: { offset: number; length: number | null }): ResumableUpload {
  return {
    id: row.id,
    profileId: row.profileId,
    filename: row.filename,
    status: row.status,
    offset: progress.offset,
    length: progress.length,
    mediaId: row.mediaId,
    error: row.error as ResumableUpload['error'],
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** Takes the upload for finishing: one finisher at a time, however often the end is retried or raced. */
async function claim(db: Db, id: string): Promise<UploadRow | undefined> {
  const [row] = (await db('mediaUploads')
    .where({ id })
    .where((q) =>
      q
        .where('status', 'uploading')
        .orWhere((stale) => stale.where('status', 'processing').where('claimedAt', '<', new Date(Date.now() - FINISH_LEASE_MS))),
    )
    .update({ status: 'processing', claimedAt: new Date() })
    .returning('*')) as UploadRow[];
  return row;
}

/**
 * Makes the media of a complete upload, exactly once: the upload is claimed, its bytes are checked as
 * `POST /upload` checks a file, and the media is inserted in the transaction that marks the upload completed by
 * this claim (a finish that lost its claim rolls its media back). A refused file marks the upload failed with
 * the problem, and its bytes go. Answers the media id.
 */
export async function finishUpload(services: Services, store: UploadStore, id: string, requestId: string): Promise<string> {
  const claimed = await claim(services.db, id);
  if (!claimed) {
    const row = (await services.db('mediaUploads').where({ id }).first()) as UploadRow;
    if (row.status === 'completed') return row.mediaId!;
    throw new ResumableUploadRefusedError(423, 'The upload is complete and being checked and stored by another request; read its status.');
  }
  const { media, dataDir } = services.config;
  let file: SpooledFile | undefined;
  try {
    file = await spool(await store.read(id), mediaFolders(dataDir).tmp, Math.max(...Object.values(media.maxBytes)));
    const stored = await storeMedia(
      services,
      ownerItself(claimed.ownerId),
      claimed.profileId,
      { ...file, filename: claimed.filename },
      'body',
      async (trx, row) => {
        const done = await trx('mediaUploads')
          .where({ id, status: 'processing', claimedAt: claimed.claimedAt })
          .update({ status: 'completed', mediaId: row.id, length: row.size });
        if (done !== 1) throw new Error(`upload ${id} was finished by another claim meanwhile`);
      },
    );
    await store.remove(id);
    return stored.id;
  } catch (error) {
    if (error instanceof MediaRejectedError) {
      await services
        .db('mediaUploads')
        .where({ id, claimedAt: claimed.claimedAt })
        .update({ status: 'failed', length: file?.size ?? claimed.length, error: JSON.stringify(problemBody(error, requestId)) });
      await store.remove(id);
    } else if (!(error instanceof ApiError)) {
      // Not the file's fault (the store, the database): a later retry may finish it.
      await services.db('mediaUploads').where({ id, claimedAt: claimed.claimedAt }).update({ status: 'uploading', claimedAt: null });
    }
    throw error;
  } finally {
    await discard(file?.path);
  }
}

/** Drops expired uploads with what the store holds of them (an unfinished one's bytes). */
export async function purgeUploads(db: Db, store: UploadStore): Promise<number> {
  const expired = (await db('mediaUploads').where('expiresAt', '<=', new Date()).select('id', 'status')) as Array<
    Pick<UploadRow, 'id' | 'status'>
  >;
  for (const { id, status } of expired) {
    if (status === 'uploading' || status === 'processing') await store.remove(id).catch(() => undefined);
  }
  return db('mediaUploads')
    .whereIn(
      'id',
      expired.map((row) => row.id),
    )
    .delete();
}
