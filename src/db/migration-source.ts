import { readdir } from 'node:fs/promises';
import type { Knex } from 'knex';

export interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/** `YYYYMMDDHHMM_<area>_<what>`: the date orders them, the rest says where they belong and what they do. */
const MIGRATION_NAME = /^\d{12}_[a-z][a-z0-9]*_[a-z0-9_]+$/;

const FOLDER = new URL('./migrations/', import.meta.url);

/**
 * Every migration in src/db/migrations, in the order of their names. Nothing lists them: a new one is a new file
 * named by the time it was written, so none can be left out, numbered twice or put out of order. A migration's
 * module is loaded when it runs: a database that has them all (or gets them from the schema snapshot) loads none.
 */
export async function loadMigrations(): Promise<Migration[]> {
  const files = (await readdir(FOLDER)).filter((file) => /\.[cm]?[jt]s$/.test(file) && !file.endsWith('.d.ts'));
  const migrations = files.map((file): Migration => {
    const name = file.replace(/\.[^.]+$/, '');
    if (!MIGRATION_NAME.test(name)) throw new Error(`migration ${file} is not named YYYYMMDDHHMM_<area>_<what>`);
    let loaded: Promise<Pick<Migration, 'up' | 'down'>> | undefined;
    const load = () => (loaded ??= loadMigration(file));
    return { name, up: async (db) => (await load()).up(db), down: async (db) => (await load()).down(db) };
  });
  return migrations.sort((a, b) => (a.name < b.name ? -1 : 1));
}

async function loadMigration(file: string): Promise<Pick<Migration, 'up' | 'down'>> {
  const { up, down } = (await import(new URL(file, FOLDER).href)) as Partial<Migration>;
  if (typeof up !== 'function' || typeof down !== 'function') throw new Error(`migration ${file} does not export up() and down()`);
  return { up, down };
}

/** The migrations for knex, as they are: no file loader of its own is involved. */
export function migrationSource(migrations: Migration[]): Knex.MigrationSource<Migration> {
  return {
    getMigrations: async () => migrations,
    getMigrationName: (migration) => migration.name,
    getMigration: async (migration) => migration,
  };
}
