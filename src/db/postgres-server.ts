import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { chown, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../lib/logger.js';
import { PortInUseError, StartError } from '../lib/start-errors.js';
import type { Credentials } from './data-folder-owner.js';
import type { Placement } from './postgres-placement.js';
import { readPostmasterLock } from './postmaster-lock.js';

/**
 * Stops the server when this process ends without stopping it (killed, out of memory, a crashed runtime): it
 * waits on a pipe only this process writes to, whose end the operating system closes however the process
 * ends, and then asks the server for a fast shutdown. PostgreSQL itself only watches its own children.
 */
const WATCHDOG = 'while read -r _; do :; done; kill -INT "$1" 2>/dev/null';
/** The last lines of a program's output, kept to say why it failed: PostgreSQL and initdb say it last. */
const KEPT_LINES = 3;
const READY_POLL_MS = 50;

/** What the programs say is logged at debug; the last lines are kept to explain a failure. */
class ProgramOutput {
  private readonly lines: string[] = [];

  constructor(
    program: ChildProcess,
    private readonly logger: Logger | undefined,
  ) {
    if (!program.stderr) return;
    createInterface({ input: program.stderr }).on('line', (line) => {
      this.logger?.debug({ postgres: line }, 'embedded postgres');
      this.lines.push(line);
      if (this.lines.length > KEPT_LINES) this.lines.shift();
    });
  }

  summary(): string {
    return this.lines.map((line) => line.replace(/\s+/g, ' ').trim()).join(' / ') || 'it said nothing';
  }
}

function howItEnded(program: ChildProcess): string {
  return program.signalCode ? `killed by ${program.signalCode}` : `exit code ${program.exitCode}`;
}

function programOptions(placement: Placement, stdio: SpawnOptions['stdio']): SpawnOptions {
  return {
    ...(placement.runAs ?? {}),
    stdio,
    env: { ...process.env, LC_MESSAGES: 'C' },
    // Its own session: a Ctrl-C in the terminal reaches this process only, which then stops the server in order.
    detached: true,
  };
}

function program(placement: Placement, name: 'initdb' | 'postgres'): string {
  return join(placement.binariesRoot, 'bin', name);
}

/** What initdb is told besides the folder and the superuser: a cluster made elsewhere with others is not this one. */
export const INITDB_OPTIONS = ['--auth=password', '--lc-messages=C', '--no-sync'];

/**
 * A new cluster in `placement.dataDir` (which must be empty), whose superuser has these credentials.
 * `--no-sync`: initdb does not wait until its files are on disk (seconds on a slow disk, most of an empty data
 * folder's start). The cluster holds nothing yet; the system writes it out within seconds (Linux: 30 at most,
 * dirty_expire_centisecs), and until then only a power cut or a crash of the system itself could lose it, with
 * what the service's first seconds wrote. Everything the server writes is synced as ever (fsync=on).
 */
export async function initialiseCluster(placement: Placement, credentials: Credentials, logger?: Logger): Promise<void> {
  const passwordFile = join(tmpdir(), `socialgate-pg-password-${randomBytes(8).toString('hex')}`);
  await writeFile(passwordFile, `${credentials.password}\n`, { mode: 0o600 });
  try {
    if (placement.runAs) await chown(passwordFile, placement.runAs.uid, placement.runAs.gid);
    const initdb = spawn(
      program(placement, 'initdb'),
      [`--pgdata=${placement.dataDir}`, `--username=${credentials.user}`, `--pwfile=${passwordFile}`, ...INITDB_OPTIONS],
      programOptions(placement, ['ignore', 'ignore', 'pipe']),
    );
    const output = new ProgramOutput(initdb, logger);
    const [code] = (await once(initdb, 'close')) as [number | null];
    if (code !== 0) {
      throw new StartError(
        'embedded_postgres_failed',
        `initdb could not create the embedded PostgreSQL's data in ${placement.dataDir} (${howItEnded(initdb)}): ${output.summary()}`,
      );
    }
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/** Listens on `port` of the address the server listens on, and closes again: the port it had (0: one the system chose). */
async function probePort(port: number): Promise<number> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(port, '127.0.0.1', resolve);
    });
    return (probe.address() as AddressInfo).port;
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}

/** The port must be free on the address the server listens on; PostgreSQL would say so only in its log. */
export async function ensurePortFree(port: number): Promise<void> {
  try {
    await probePort(port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(port);
    throw error;
  }
}

/** A port free now, for a server nobody else needs to find. */
export function freePort(): Promise<number> {
  return probePort(0);
}

/** A PostgreSQL server this process started, which cannot outlive it. */
export class PostgresServer {
  /** Its output read to the end too ('close'), so that what it said last is there to explain it. */
  private ended = false;
  private readonly end: Promise<void>;
  /** An end before it was ready is the start's failure, reported by the start. */
  private running = false;
  private stopping = false;

  private constructor(
    private readonly server: ChildProcess,
    private readonly output: ProgramOutput,
    logger: Logger | undefined,
  ) {
    this.end = new Promise((resolve) =>
      server.once('close', () => {
        this.ended = true;
        resolve();
      }),
    );
    void this.end.then(() => {
      if (this.running && !this.stopping) {
        logger?.error(
          { code: server.exitCode, signal: server.signalCode },
          `the embedded PostgreSQL stopped unexpectedly: ${output.summary()}`,
        );
      }
    });
  }

  static async start(placement: Placement, port: number, flags: string[], logger?: Logger): Promise<PostgresServer> {
    const server = spawn(
      program(placement, 'postgres'),
      ['-D', placement.dataDir, '-p', String(port), ...flags],
      programOptions(placement, ['ignore', 'ignore', 'pipe']),
    );
    const started = new PostgresServer(server, new ProgramOutput(server, logger), logger);
    try {
      await once(server, 'spawn');
      const watchdog = spawn(
        '/bin/sh',
        ['-c', WATCHDOG, 'socialgate-postgres-watchdog', String(server.pid)],
        programOptions(placement, ['pipe', 'ignore', 'ignore']),
      );
      await once(watchdog, 'spawn');
      void started.end.then(() => watchdog.kill());
      await started.ready(placement.dataDir);
      started.running = true;
    } catch (error) {
      await started.stop();
      throw error;
    }
    return started;
  }

  /** Ready once its postmaster.pid, not one an earlier server left, says so. */
  private async ready(dataDir: string): Promise<void> {
    for (;;) {
      if (this.ended) {
        throw new StartError(
          'embedded_postgres_failed',
          `the embedded PostgreSQL did not start (${howItEnded(this.server)}): ${this.output.summary()}`,
        );
      }
      const lock = readPostmasterLock(dataDir);
      if (lock && lock.pid === this.server.pid && lock.status === 'ready') return;
      await sleep(READY_POLL_MS);
    }
  }

  /** A fast shutdown: sessions are ended, the data is checkpointed, and the server exits. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.server.pid === undefined) return; // It never ran.
    if (!this.ended) this.server.kill('SIGINT');
    await this.end;
  }
}
