import { join, resolve } from 'node:path';
import { int } from '../lib/env.js';
import type { Logger } from '../lib/logger.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './embedded.js';

/**
 * The settings the database is opened with. They are read on their own, with nothing else loaded, so that
 * src/main.ts can start the embedded PostgreSQL (an initdb on an empty data folder) while the rest of the
 * service's modules load.
 */
export interface DatabaseSettings {
  dataDir: string;
  databaseUrl: string | undefined;
  embeddedPostgresPort: number;
}

export function readDatabaseSettings(env: NodeJS.ProcessEnv): DatabaseSettings {
  return {
    dataDir: resolve(env.DATA_DIR || '.data'),
    databaseUrl: env.DATABASE_URL || undefined,
    embeddedPostgresPort: int('EMBEDDED_PG_PORT', 54329, env),
  };
}

/** The embedded server's database for the service. */
export const SERVICE_DATABASE = 'socialgate';

export interface OpenedDatabase {
  url: string;
  /** The embedded server, when no DATABASE_URL was given. */
  embedded: EmbeddedDatabase | null;
}

/** The database at DATABASE_URL, or the embedded PostgreSQL in the data folder, started. */
export async function openDatabase(settings: DatabaseSettings, logger: Logger): Promise<OpenedDatabase> {
  if (settings.databaseUrl) return { url: settings.databaseUrl, embedded: null };
  const dir = join(settings.dataDir, 'postgres');
  const embedded = await startEmbeddedPostgres({
    dir,
    port: settings.embeddedPostgresPort,
    database: SERVICE_DATABASE,
    persistent: true,
    fromTemplate: true,
    logger,
  });
  logger.info({ dir, port: settings.embeddedPostgresPort }, 'embedded PostgreSQL started');
  return { url: embedded.url, embedded };
}
