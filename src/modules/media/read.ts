import { buffer } from 'node:stream/consumers';
import type { Knex } from 'knex';
import type { Config } from '../../config.js';
import type { PublishMedia } from '../../platforms/capabilities/publishing.js';
import { assertProfileInScope, type Principal } from '../auth/principal.js';
import { MediaRow } from './models.js';
import { fileUrl } from './service.js';
import { storageFor } from './storage.js';

/** A media file as a platform sees it, and the profile it belongs to (null: the owner's as a whole). */
export interface OwnedMedia extends PublishMedia {
  profileId: string | null;
}

const COLUMNS = ['id', 'profileId', 'kind', 'mimeType', 'size', 'width', 'height', 'durationMs', 'frameRate', 'token'] as const;

/**
 * The media among `ids` a caller may use: only its owner's (ids of anyone else's are left out, for the caller to
 * refuse as unknown); 403 when one belongs to a profile outside the caller's key. Media of no profile is the
 * owner's as a whole and goes with any of the owner's keys (as in a post). It takes the whole principal, never an
 * owner id, so that no caller can narrow a restricted key to its owner before the ids are resolved.
 */
export async function usableMedia(db: Knex, principal: Principal, ids: string[]): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  const rows = await MediaRow.query(db)
    .where({ ownerId: principal.ownerId })
    .whereIn('id', ids)
    .select(...COLUMNS);
  for (const row of rows) if (row.profileId !== null) assertProfileInScope(principal, row.profileId);
  return rows;
}

/** The media among `ids` a caller may use (`usableMedia`) as a platform sees them: what its rules check, and the public URL it fetches the bytes from. */
export async function mediaFiles(db: Knex, publicUrl: string, principal: Principal, ids: string[]): Promise<Map<string, OwnedMedia>> {
  return asFiles(await usableMedia(db, principal, ids), publicUrl);
}

/** Media files by id that were checked for their caller when they were stored (a post's, published later). */
export async function storedMediaFiles(db: Knex, publicUrl: string, ids: string[]): Promise<Map<string, OwnedMedia>> {
  if (ids.length === 0) return new Map();
  return asFiles(
    await MediaRow.query(db)
      .whereIn('id', ids)
      .select(...COLUMNS),
    publicUrl,
  );
}

function asFiles(rows: MediaRow[], publicUrl: string): Map<string, OwnedMedia> {
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        profileId: row.profileId,
        kind: row.kind,
        mimeType: row.mimeType,
        size: Number(row.size),
        width: row.width,
        height: row.height,
        durationMs: row.durationMs,
        frameRate: row.frameRate,
        url: fileUrl(publicUrl, row),
      },
    ]),
  );
}

/** A stored media file's type and name, if it exists. */
export async function mediaFile(db: Knex, id: string): Promise<{ mimeType: string; filename: string | null } | undefined> {
  return MediaRow.query(db).findById(id).select('mimeType', 'filename');
}

/**
 * A media file's bytes, for a platform that takes them in the request (an ad account's image library) rather than
 * fetching the file's URL. The caller has checked the media is the caller's (`mediaFiles`).
 */
export async function mediaBytes(db: Knex, config: Config, id: string): Promise<Buffer> {
  const row = await MediaRow.query(db).findById(id).select('storageKey');
  if (!row) throw new Error(`media ${id} is gone`);
  return buffer(await storageFor(config).read(row.storageKey));
}

/**
 * Locks the media a post is being saved with, in the post's transaction, until it commits: a delete of one of
 * them waits for the post (and is then refused), or the post waits for the delete. The ids found; a missing
 * one was deleted since the post was checked.
 */
export async function lockMediaForPost(trx: Knex.Transaction, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await MediaRow.query(trx).whereIn('id', ids).forShare().select('id');
  return new Set(rows.map((row) => row.id));
}
