import type { Knex } from 'knex';

/**
 * Every change that can end a token's validity (revoked, logged out, new expiry, scope, owner, the row deleted)
 * is announced on `socialgate_principals` with the row's id, whichever code or person made it: each API process
 * then drops that principal from its cache (src/modules/auth/principal-cache.ts) when the transaction commits.
 * A statement deleting many rows (the purge of expired sessions) announces `*` once: drop everything.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    CREATE FUNCTION socialgate_announce_principal_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('socialgate_principals', OLD.id);
      RETURN NULL;
    END $$`);
  await db.raw(`
    CREATE FUNCTION socialgate_announce_principals_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF (SELECT count(*) FROM deleted) > 100 THEN
        PERFORM pg_notify('socialgate_principals', '*');
      ELSE
        PERFORM pg_notify('socialgate_principals', id) FROM deleted;
      END IF;
      RETURN NULL;
    END $$`);
  for (const [table, columns] of [
    ['sessions', 'revoked_at, expires_at, owner_id'],
    ['api_keys', 'revoked_at, expires_at, owner_id, profile_ids'],
  ]) {
    await db.raw(`
      CREATE TRIGGER ${table}_announce_change AFTER UPDATE OF ${columns} ON ${table}
        FOR EACH ROW EXECUTE FUNCTION socialgate_announce_principal_change()`);
    await db.raw(`
      CREATE TRIGGER ${table}_announce_deleted AFTER DELETE ON ${table} REFERENCING OLD TABLE AS deleted
        FOR EACH STATEMENT EXECUTE FUNCTION socialgate_announce_principals_deleted()`);
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['api_keys', 'sessions']) {
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_announce_deleted ON ${table}`);
    await db.raw(`DROP TRIGGER IF EXISTS ${table}_announce_change ON ${table}`);
  }
  await db.raw('DROP FUNCTION IF EXISTS socialgate_announce_principals_deleted()');
  await db.raw('DROP FUNCTION IF EXISTS socialgate_announce_principal_change()');
}
