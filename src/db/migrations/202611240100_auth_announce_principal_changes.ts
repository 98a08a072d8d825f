import type { Knex } from 'knex';

/**
 * Every change that can end a token's validity (revoked, logged out, new expiry, scope, owner, the row deleted)
 * is announced on `socialgate_principals` with the row's id, whichever code or person made it: each API process
 * then drops that principal from its cache (src/modules/auth/principal-cache.ts) when the transaction commits.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION socialgate_announce_principal_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('socialgate_principals', OLD.id);
      RETURN NULL;
    END $$`);
  await db.raw(`
    CREATE TRIGGER sessions_announce_change AFTER UPDATE OF revoked_at, expires_at, owner_id OR DELETE ON sessions
      FOR EACH ROW EXECUTE FUNCTION socialgate_announce_principal_change()`);
  await db.raw(`
    CREATE TRIGGER api_keys_announce_change AFTER UPDATE OF revoked_at, expires_at, owner_id, profile_ids OR DELETE ON api_keys
      FOR EACH ROW EXECUTE FUNCTION socialgate_announce_principal_change()`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP TRIGGER IF EXISTS api_keys_announce_change ON api_keys');
  await db.raw('DROP TRIGGER IF EXISTS sessions_announce_change ON sessions');
  await db.raw('DROP FUNCTION IF EXISTS socialgate_announce_principal_change()');
}
