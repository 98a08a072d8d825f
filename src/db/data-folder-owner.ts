import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from '../lib/logger.js';
import { DataFolderInUseError, StartError } from '../lib/start-errors.js';
import { isRunning, readPostmasterLock, type PostmasterLock } from './postmaster-lock.js';

/**
 * A service holds a connection of this name (followed by its process id) to its embedded server for as long as
 * it runs. The operating system closes it when the process dies, however it dies, so a server on our data
 * folder without it was left behind.
 */
const OWNER = 'socialgate owner';
/** The owner connects right after its server is ready; a younger server without one may still get it. */
const OWNER_GRACE_SECONDS = 5;
/** How long a server left behind is given to stop; PostgreSQL's pg_ctl waits as long. */
const STOP_WAIT_MS = 60_000;
const POLL_MS = 100;

export interface Credentials {
  user: string;
  password: string;
}

export interface Ownership {
  /** The owner's connection, to the database `postgres`: the start may use it for its own statements. */
  client: pg.Client;
  release(): Promise<void>;
}

export async function holdAsOwner(adminUrl: string): Promise<Ownership> {
  const client = new pg.Client({ connectionString: adminUrl, application_name: `${OWNER} ${process.pid}` });
  // The server stopping ends this connection; that is reported where the server is watched.
  client.on('error', () => undefined);
  await client.connect();
  return { client, release: () => client.end() };
}

type Verdict = { kind: 'held'; ownerPid: string } | { kind: 'left behind' } | { kind: 'undecided' };

/**
 * Makes sure no server runs on `dataDir` before one is started there. A server its Socialgate left behind
 * (killed before it could stop it) is asked to stop, as `pg_ctl stop -m fast` does, and waited for; one that
 * a running Socialgate holds is left alone, and this start is refused.
 */
export async function recoverDataFolder(dataDir: string, credentials: Credentials, logger?: Logger): Promise<void> {
  const deadline = Date.now() + STOP_WAIT_MS;
  let asked: number | undefined;
  for (;;) {
    const lock = readPostmasterLock(dataDir);
    if (!lock || !isRunning(lock.pid)) return;
    if (asked !== lock.pid) {
      const verdict = await judge(lock, dataDir, credentials);
      if (verdict.kind === 'held') throw new DataFolderInUseError(dataDir, verdict.ownerPid);
      if (verdict.kind === 'left behind') {
        logger?.warn({ pid: lock.pid, dir: dataDir }, 'stopping the embedded PostgreSQL that a Socialgate left running when it ended');
        askToStop(lock.pid, dataDir);
        asked = lock.pid;
      }
    }
    if (Date.now() >= deadline) {
      throw new StartError(
        'leftover_server',
        `the PostgreSQL server (process ${lock.pid}) running on ${dataDir} neither answers nor stops: stop it (kill -INT ${lock.pid}); if that process is no PostgreSQL, remove ${join(dataDir, 'postmaster.pid')}`,
      );
    }
    await sleep(POLL_MS);
  }
}

/** Undecided while the server starts, stops, or does not answer as the server of this very folder. */
async function judge(lock: PostmasterLock, dataDir: string, credentials: Credentials): Promise<Verdict> {
  const client = new pg.Client({
    host: '127.0.0.1',
    port: lock.port,
    database: 'postgres',
    ...credentials,
    connectionTimeoutMillis: 2000,
    application_name: 'socialgate start',
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ dir: string; owner: string | null; young: boolean }>(
      `SELECT current_setting('data_directory') AS dir,
              (SELECT application_name FROM pg_stat_activity WHERE application_name LIKE $1 LIMIT 1) AS owner,
              now() - pg_postmaster_start_time() < make_interval(secs => $2) AS young`,
      [`${OWNER} %`, OWNER_GRACE_SECONDS],
    );
    const row = rows[0];
    if (!row || !sameFolder(row.dir, dataDir)) return { kind: 'undecided' };
    if (row.owner) return { kind: 'held', ownerPid: row.owner.slice(OWNER.length + 1) };
    return row.young ? { kind: 'undecided' } : { kind: 'left behind' };
  } catch {
    return { kind: 'undecided' };
  } finally {
    await client.end().catch(() => undefined);
  }
}

function sameFolder(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function askToStop(pid: number, dataDir: string): void {
  try {
    process.kill(pid, 'SIGINT');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return;
    throw new StartError(
      'leftover_server',
      `a PostgreSQL server left running on ${dataDir} (process ${pid}) belongs to another user: stop it as that user (kill -INT ${pid}) and start again`,
      { cause: error },
    );
  }
}
