import { randomBytes } from 'node:crypto';
import { connect, type Db } from '../../src/db/database.js';
import { createDatabaseIfMissing } from '../../src/db/embedded.js';
import { loadMigrations, migrationSource } from '../../src/db/migration-source.js';
import { adminUrl, withDatabase } from '../fixtures.js';

/**
 * A database of its own for the test of one migration, made in the calling suite's `before` and closed in its
 * `after`: `db()` reaches it, `migratedUpTo()` applies every migration that sorts before `migration`, so the test
 * can write the rows the migration finds; the service's `migrate(db)` then applies the rest.
 */
export function migrationDatabase(migration: string): { db: () => Db; migratedUpTo: () => Promise<void> } {
  let db: Db | undefined;
  before(async () => {
    const name = `m_${randomBytes(6).toString('hex')}`;
    await createDatabaseIfMissing(adminUrl(), name);
    db = connect(withDatabase(adminUrl(), name), 2);
  });
  after(async () => {
    await db?.destroy();
  });
  return {
    db: () => db!,
    migratedUpTo: async () => {
      const migrations = await loadMigrations();
      await db!.migrate.latest({ migrationSource: migrationSource(migrations.filter((m) => m.name < migration)) });
    },
  };
}
