import knexFactory, { type Knex } from 'knex';
import { knexSnakeCaseMappers, Model } from 'objection';
import { migrations } from './migrations/index.js';

export type Db = Knex;

export function connect(url: string, poolMax = 20): Db {
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

/** The service migrates itself: every migration is listed in code, so no file loader is involved. */
export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({
    migrationSource: {
      getMigrations: async () => migrations.map((m) => m.name),
      getMigrationName: (name: string) => name,
      getMigration: async (name: string) => {
        const found = migrations.find((m) => m.name === name);
        if (!found) throw new Error(`unknown migration ${name}`);
        return found;
      },
    },
  });
}
