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
