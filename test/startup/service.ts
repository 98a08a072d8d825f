import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { isRunning, readPostmasterLock } from '../../src/db/postmaster-lock.js';
import { Contract } from '../../src/http/contract.js';
import { ApiClient } from '../support/client.js';
import { freePort } from '../support/net.js';

/**
 * The service started as its README starts it (`npm start`), as a child process of the test, with everything it
 * leaves on the machine tracked: every process group it was started in and every data folder it used are
 * killed and removed by cleanUp(), and killed when the test process exits, however a test ended.
 */

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));
/** Settings of the test's own environment that would point the service elsewhere than its embedded defaults. */
const INHERITED_SETTINGS = ['DATABASE_URL', 'MONGODB_URL', 'LOG_LEVEL', 'SOCIALGATE_ROLE', 'HOST', 'PUBLIC_URL', 'SANDBOX'];

const groups = new Set<number>();
const dataFolders = new Set<string>();

export interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(100);
  }
}

/** The test's environment without what would point the service elsewhere, with the given settings. */
export function serviceEnvironment(settings: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const name of INHERITED_SETTINGS) delete inherited[name];
  return { ...inherited, ...settings };
}

export class ServiceProcess {
  private output = '';
  private readonly child: ChildProcess;
  private readonly ended: Promise<number | null>;

  constructor(env: Record<string, string>, cwd: string) {
    // A process group of its own: npm, tsx and the service, killed together whatever happens.
    this.child = spawn('npm', ['start'], { cwd, env: serviceEnvironment(env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    groups.add(this.child.pid!);
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.ended = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        groups.delete(this.child.pid!);
        resolve(code);
      }),
    );
  }

  get text(): string {
    return this.output;
  }

  get log(): LogLine[] {
    return this.output.split('\n').flatMap((line) => {
      if (!line.startsWith('{')) return [];
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });
  }

  /** The process id of the service itself (not npm's, nor tsx's), once it says it started. */
  async started(): Promise<number> {
    let exited = false;
    void this.ended.then(() => (exited = true));
    await until(() => exited || this.log.some((line) => line.msg === 'started'), 'the service says it started', 90_000);
    const line = this.log.find((entry) => entry.msg === 'started');
    if (!line) throw new Error(`the service did not start:\n${this.output}`);
    return line.pid as number;
  }

  /** npm's exit code: the service's, unless a signal ended npm too. */
  exited(): Promise<number | null> {
    return this.ended;
  }

  /** A signal to the whole group, as a terminal's Ctrl-C (SIGINT) sends it. */
  signal(signal: NodeJS.Signals): void {
    process.kill(-this.child.pid!, signal);
  }
}

/** One data folder and free ports for it: the settings a person would give `npm start`. */
export class Scene {
  private constructor(
    /** Where the test may put anything; DATA_DIR is its `.data`. */
    readonly folder: string,
    readonly settings: { DATA_DIR: string; PORT: string; SANDBOX_PORT: string; EMBEDDED_PG_PORT: string },
  ) {}

  /** In a folder of its own, which others may enter unless it is to be private (mode 700, as /root is). */
  static async create(options: { private?: boolean } = {}): Promise<Scene> {
    const folder = mkdtempSync(join(tmpdir(), 'socialgate-startup-'));
    if (!options.private) chmodSync(folder, 0o755);
    const dataDir = join(folder, '.data');
    dataFolders.add(folder);
    dataFolders.add(dataDir);
    const [port, sandboxPort, postgresPort] = [await freePort(), await freePort(), await freePort()];
    return new Scene(folder, {
      DATA_DIR: dataDir,
      PORT: String(port),
      SANDBOX_PORT: String(sandboxPort),
      EMBEDDED_PG_PORT: String(postgresPort),
    });
  }

  get postgresDir(): string {
    return join(this.settings.DATA_DIR, 'postgres');
  }

  start(overrides: Record<string, string> = {}, cwd = REPOSITORY): ServiceProcess {
    return new ServiceProcess({ ...this.settings, ...overrides }, cwd);
  }

  async api(): Promise<ApiClient> {
    return new ApiClient(`http://127.0.0.1:${this.settings.PORT}`, await Contract.load());
  }
}

/**
 * Whether the process has ended, also when its parent has not collected it yet (a zombie, which signals still
 * reach): an orphan's new parent, here the machine's init, collects it when it gets round to it. Linux: /proc.
 */
export function hasEnded(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.startsWith('Z');
  } catch {
    return true;
  }
}

/** The processes whose command line contains `text` (Linux: read from /proc). */
export function processesRunning(text: string): number[] {
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      return readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').includes(text) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

function killEverything(): number[] {
  for (const group of groups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  const servers: number[] = [];
  for (const folder of dataFolders) {
    const lock = readPostmasterLock(join(folder, 'postgres'));
    if (lock && isRunning(lock.pid)) {
      // An immediate shutdown: the folder is thrown away next.
      process.kill(lock.pid, 'SIGQUIT');
      servers.push(lock.pid);
    }
  }
  return servers;
}

/** Kills every service and embedded server the tests started, and removes their folders. */
export async function cleanUp(): Promise<void> {
  const servers = killEverything();
  await until(() => servers.every(hasEnded), 'the servers left by the tests are gone', 15_000);
  for (const folder of dataFolders) rmSync(folder, { recursive: true, force: true });
  dataFolders.clear();
}

process.on('exit', () => void killEverything());
