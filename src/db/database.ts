import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers, Model } from 'objection';
import { loadMigrations, type Migration, migrationSource } from './migration-source.js';
import { applySchemaSnapshot } from './schema-snapshot.js';

export type Db = Knex;

export function connect(url: string, poolMax: number): Db {
  const db = knexFactory({
    client: 'pg',
    connection: { connectionString: url, application_name: 'socialgate' },
    pool: { min: 0, max: poolMax },
    // Code speaks camelCase, the schema snake_case; identifiers and result rows are mapped at the query layer.
    ...knexSnakeCaseMappers(),
  });
  Model.knex(db);
  return db;
}

/**
 * The names migrations had when they were numbered by hand, in the order they were applied (0004 came after
 * 0008, and there was no 0009). Knex refuses to migrate a database that records a migration it cannot find, so
 * a database migrated under these names has them renamed before anything else.
 */
const NUMBERED_NAMES: Array<[numbered: string, dated: string]> = [
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
];

/**
 * The service migrates itself, in the order of the migrations' names. A migration that sorts before one the
 * database has applied already is refused: databases migrated at different times would otherwise differ. A new,
 * empty database first gets the schema snapshot (src/db/schema-snapshot.ts) of the migrations it covers.
 */
export async function migrate(db: Db): Promise<void> {
  const migrations = await loadMigrations();
  const names = migrations.map((m) => m.name);
  let applied: string[];
  if (await db.schema.hasTable('knex_migrations')) {
    // Compatibility with databases migrated before migrations were named by date.
    await db.raw(
      'UPDATE knex_migrations m SET name = r.dated FROM unnest(?::text[], ?::text[]) AS r(numbered, dated) WHERE m.name = r.numbered',
      [NUMBERED_NAMES.map(([numbered]) => numbered), NUMBERED_NAMES.map(([, dated]) => dated)] as never,
    );
    applied = (await db('knex_migrations').pluck('name')) as string[];
    refuseOutOfOrder(migrations, applied);
  } else {
    applied = await applySchemaSnapshot(db, names);
  }
  // Knex locks its table and frees it again even when it has nothing to run: two commits, each a flush to disk.
  const recorded = new Set(applied);
  if (recorded.size === names.length && names.every((name) => recorded.has(name))) return;
  await db.migrate.latest({ migrationSource: migrationSource(migrations) });
}

function refuseOutOfOrder(migrations: Migration[], applied: string[]): void {
  const latest = [...applied].sort().at(-1);
  const late = migrations.filter((m) => latest !== undefined && m.name < latest && !applied.includes(m.name));
  if (late.length > 0) {
    throw new Error(
      `migrations ${late.map((m) => m.name).join(', ')} sort before ${latest}, which this database has applied already: name them by a later time`,
    );
  }
}
