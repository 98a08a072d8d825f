import type { Knex } from 'knex';
import type { PublishMedia } from '../../platforms/capabilities/publishing.js';
import { MediaRow } from './models.js';
import { fileUrl } from './service.js';

/**
 * Media files as a platform sees them, by id: what its rules check, and the public URL it fetches the bytes from.
 * `ownerId`: only that owner's (ids of anyone else's are left out, for the caller to refuse).
 */
export async function mediaFiles(db: Knex, publicUrl: string, ids: string[], ownerId?: string): Promise<Map<string, PublishMedia>> {
  if (ids.length === 0) return new Map();
  const query = MediaRow.query(db)
    .whereIn('id', ids)
    .select('id', 'kind', 'mimeType', 'size', 'width', 'height', 'durationMs', 'frameRate', 'token');
  if (ownerId) query.where({ ownerId });
  const rows = await query;
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
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

/** The profile each of the owner's media among `ids` belongs to (null: the owner's as a whole); others' are left out. */
export async function mediaProfiles(db: Knex, ownerId: string, ids: string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await MediaRow.query(db).where({ ownerId }).whereIn('id', ids).select('id', 'profileId');
  return new Map(rows.map((row) => [row.id, row.profileId]));
}
