import type { Db } from '../../db/database.js';

/**
 * What other areas read and write of the keys' table. The statement that finds a key by the hash of its secret
 * (`$1`), with the columns authentication needs: the auth area runs it as a prepared statement.
 */
export const API_KEY_BY_SECRET_HASH =
  'SELECT id, owner_id, profile_ids, expires_at, last_used_at, revoked_at FROM api_keys WHERE secret_hash = $1';

/** Moves a key's `lastUsedAt` forward only: another process may have written a later use. */
export async function touchApiKey(db: Db, id: string, at: Date): Promise<void> {
  await db.raw('UPDATE api_keys SET last_used_at = :at WHERE id = :id AND (last_used_at IS NULL OR last_used_at < :at)', { id, at });
}

/** The ids of the owner's live keys restricted to the profile (among others, or alone). */
export async function keysRestrictedTo(db: Db, ownerId: string, profileId: string): Promise<string[]> {
  const rows = (await db('apiKeys')
    .where({ ownerId, revokedAt: null })
    .whereRaw('? = ANY(profile_ids)', [profileId])
    .select('id')) as Array<{
    id: string;
  }>;
  return rows.map((row) => row.id);
}

/**
 * The keys restricted to a profile being deleted, in the deletion's transaction: a key restricted to it alone is
 * revoked (it could reach nothing any more, and must not come to mean "every profile"); a key restricted to it and
 * others loses it. The table's triggers announce both changes, so every process drops those principals on commit.
 * Unrestricted keys are not touched.
 */
export async function releaseProfileKeys(db: Db, ownerId: string, profileId: string): Promise<void> {
  await db.raw(
    `UPDATE api_keys SET
       revoked_at = CASE WHEN profile_ids = ARRAY[:profileId]::text[] THEN now() ELSE revoked_at END,
       profile_ids = CASE WHEN profile_ids = ARRAY[:profileId]::text[] THEN profile_ids ELSE array_remove(profile_ids, :profileId) END
     WHERE owner_id = :ownerId AND revoked_at IS NULL AND :profileId = ANY(profile_ids)`,
    { ownerId, profileId },
  );
}
