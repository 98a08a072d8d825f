import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { connect, type Db, migrate } from '../../src/db/database.js';
import { createDatabaseIfMissing } from '../../src/db/embedded.js';
import { loadMigrations, migrationSource } from '../../src/db/migration-source.js';
import { adminUrl, withDatabase } from '../fixtures.js';

/** The names of the migrations before they were dated, in the order databases applied them, and their names now. */
const NUMBERED = [
  ['0001_foundation', '202611220224_core_foundation'],
  ['0002_events_and_hooks', '202611220234_hooks_events_and_deliveries'],
  ['0003_accounts_and_messages', '202611220254_accounts_platform_accounts_and_messages'],
  ['0005_oauth_connections', '202611220302_connect_oauth_connections'],
  ['0006_ad_accounts', '202611220304_accounts_ad_accounts'],
  ['0007_conversation_state', '202611220314_messaging_conversation_state'],
  ['0008_platform_user_ids', '202611220334_accounts_platform_user_ids'],
  ['0004_qrchat_sessions', '202611220335_connect_qrchat_sessions'],
  ['0010_media', '202611220346_media_files'],
  ['0011_publishing', '202611220351_publishing_posts_targets_and_queue'],
] as const;

describe('migrations — named by date, applied in the order of their names', () => {
  const opened: Db[] = [];

  /** A new, empty database of its own. */
  async function freshDatabase(): Promise<Db> {
    const name = `m_${randomBytes(6).toString('hex')}`;
    await createDatabaseIfMissing(adminUrl(), name);
    const db = connect(withDatabase(adminUrl(), name), 2);
    opened.push(db);
    return db;
  }

  async function recorded(db: Db): Promise<Array<{ name: string; batch: number }>> {
    return db('knex_migrations').select('name', 'batch').orderBy('id');
  }

  after(async () => {
    await Promise.all(opened.map((db) => db.destroy()));
  });

  it('every file in src/db/migrations is a migration named YYYYMMDDHHMM_<area>_<what>, and a new database applies them in name order', async () => {
    const files = await readdir(new URL('../../src/db/migrations/', import.meta.url));
    const names = (await loadMigrations()).map((m) => m.name);
    expect(names).to.deep.equal(files.map((file) => file.replace(/\.ts$/, '')).sort());
    for (const name of names) {
      expect(name).to.match(/^\d{12}_[a-z][a-z0-9]*_[a-z0-9_]+$/);
      const time = `${name.slice(0, 4)}-${name.slice(4, 6)}-${name.slice(6, 8)}T${name.slice(8, 10)}:${name.slice(10, 12)}`;
      expect(new Date(`${time}Z`).toISOString(), `${name} starts with a real time`).to.equal(`${time}:00.000Z`);
    }
    expect(new Set(names.map((name) => name.slice(0, 12))).size, 'no two share a time').to.equal(names.length);

    const db = await freshDatabase();
    await migrate(db);
    expect((await recorded(db)).map((row) => row.name)).to.deep.equal(names);
  });

  it('a database migrated under the old numbered names migrates cleanly under the dated ones, running nothing twice', async () => {
    const db = await freshDatabase();
    const byName = new Map((await loadMigrations()).map((m) => [m.name, m]));
    const numbered = NUMBERED.map(([old, dated]) => ({ ...byName.get(dated)!, name: old }));
    await db.migrate.latest({ migrationSource: migrationSource(numbered) });
    await db('owners').insert({ id: 'own_kept', email: 'kept@example.com', passwordHash: 'x' });

    await migrate(db);
    await migrate(db);
    const rows = await recorded(db);
    expect(rows.slice(0, NUMBERED.length)).to.deep.equal(NUMBERED.map(([, dated]) => ({ name: dated, batch: 1 })));
    // Migrations written since the renaming run once, after them.
    expect(rows.slice(NUMBERED.length).every((row) => row.batch === 2)).to.equal(true);
    expect(rows.map((row) => row.name)).to.deep.equal([...byName.keys()]);
    expect(await db('owners').where({ id: 'own_kept' }).first()).to.include({ email: 'kept@example.com' });
  });

  it("leaves a database that has every migration as it is, without taking knex's lock (two commits, each a flush to disk)", async () => {
    const db = await freshDatabase();
    await migrate(db);
    const sent: string[] = [];
    db.on('query', ({ sql }: { sql: string }) => sent.push(sql));
    await migrate(db);
    expect(sent.filter((sql) => /knex_migrations_lock|^BEGIN/i.test(sql))).to.deep.equal([]);
    expect((await recorded(db)).map((row) => row.name)).to.deep.equal((await loadMigrations()).map((m) => m.name));
  });

  it('refuses a migration that sorts before one the database has applied, naming it', async () => {
    const db = await freshDatabase();
    await migrate(db);
    // As if 202611220304_accounts_ad_accounts had come from a branch merged after the later ones were applied.
    await db('knex_migrations').where({ name: '202611220304_accounts_ad_accounts' }).delete();
    let refusal: unknown;
    await migrate(db).catch((error: unknown) => (refusal = error));
    expect(refusal).to.be.an.instanceOf(Error);
    expect((refusal as Error).message).to.contain('202611220304_accounts_ad_accounts sort before');
    expect(await db.schema.hasTable('ad_accounts'), 'the schema is left as it was').to.equal(true);
  });
});
