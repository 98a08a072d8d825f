/** The processes a benchmark runs: each server in its own process group, stopped as Ctrl-C would stop it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const HOST = '127.0.0.1';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STOP_GRACE_MS = 20_000;

const children = new Set<ChildProcess>();

/** A TCP port free on 127.0.0.1 now (a random one may be another program's, an outgoing connection's say). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, HOST);
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The URL of the database of a service started by startService. */
export function serviceDatabaseUrl(pgPort: number): string {
  return `postgres://postgres:postgres@${HOST}:${pgPort}/socialgate`;
}

export function startChild(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  // Its own process group: npx runs `sh -c tsx …`, which passes no signal on, so stopping means signalling the group.
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  children.add(child);
  const pass = (line: string) => process.stderr.write(`[${label}] ${line}\n`);
  // Log records (only warnings and worse at LOG_LEVEL=warn), not the start-up banner.
  createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('{') && pass(line));
  // The headline of each failure, without npm's config warnings, stack frames and dumped objects.
  createInterface({ input: child.stderr! }).on('line', (line) => /^[^\s{}\]]/.test(line) && !line.startsWith('npm warn') && pass(line));
  return child;
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

interface ProcessStat {
  pid: number;
  comm: string;
  ppid: number;
  pgrp: number;
  /** User + system CPU time, in clock ticks. */
  cpuTicks: number;
  /** User + system CPU time of its children that have ended and that it has collected, in clock ticks. */
  endedChildrenTicks: number;
}

/** Every process, from /proc (Linux). */
function processes(): ProcessStat[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        // "pid (comm) state ppid pgrp …"; comm may hold spaces, so the fields are counted after the last ')'.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const close = stat.lastIndexOf(')');
        const fields = stat.slice(close + 2).split(' ');
        return [
          {
            pid: Number(pid),
            comm: stat.slice(stat.indexOf('(') + 1, close),
            ppid: Number(fields[1]),
            pgrp: Number(fields[2]),
            cpuTicks: Number(fields[11]) + Number(fields[12]),
            endedChildrenTicks: Number(fields[13]) + Number(fields[14]),
          },
        ];
      } catch {
        return []; // gone meanwhile
      }
    });
}

/** A process group's members other than PostgreSQL's. */
function membersButPostgres(pgid: number): ProcessStat[] {
  return processes().filter((stat) => stat.pgrp === pgid && stat.comm !== 'postgres');
}

/**
 * The CPU time (ms) a child's Node processes have used so far, PostgreSQL's excluded: what a server costs
 * per request whatever else the machine runs (clock ticks of 10 ms, Linux's USER_HZ).
 */
export function nodeCpuMs(child: ChildProcess): number {
  return membersButPostgres(child.pid!).reduce((sum, stat) => sum + stat.cpuTicks * 10, 0);
}

/** The CPU seconds one process has used so far (its own, not its children's). */
export function processCpuSeconds(pid: number): number {
  return (processes().find((stat) => stat.pid === pid)?.cpuTicks ?? 0) / 100;
}

/**
 * The CPU seconds the PostgreSQL server on `dataDir` has used so far: the postmaster, its running backends, and
 * the backends that have ended (counted in the postmaster's collected children's time).
 */
export function postgresCpuSeconds(dataDir: string): number {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const ticks = processes().reduce((sum, stat) => {
    if (stat.pid === postmaster) return sum + stat.cpuTicks + stat.endedChildrenTicks;
    return stat.ppid === postmaster ? sum + stat.cpuTicks : sum;
  }, 0);
  return ticks / 100;
}

/**
 * SIGINT as Ctrl-C on `npm start` would send it, to every process of the group but the embedded PostgreSQL:
 * main.ts stops that itself, after its pools, and a Ctrl-C that also reaches PostgreSQL makes the two
 * shutdowns race. Then wait until the whole group is gone (npx may exit before the service and PostgreSQL
 * have), and SIGKILL it if that takes too long.
 */
export async function stopChild(child: ChildProcess): Promise<void> {
  children.delete(child);
  const pgid = child.pid;
  if (pgid === undefined || !groupAlive(pgid)) return;
  for (const { pid } of membersButPostgres(pgid)) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      /* exited meanwhile */
    }
  }
  const deadline = performance.now() + STOP_GRACE_MS;
  while (groupAlive(pgid) && performance.now() < deadline) await sleep(50);
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  while (groupAlive(pgid)) await sleep(50);
}

/** Stops every child still running. */
export async function stopChildren(): Promise<void> {
  await Promise.all([...children].map(stopChild));
}

/** Polls until `url` answers 200; a child that exits first fails the wait instead of letting it run to the deadline. */
export async function waitFor200(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the process exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    const status = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(10);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

/**
 * The service (API and worker roles, embedded PostgreSQL) on `dataDir`, started by the README's command: `npm
 * start`, or `command` (the TypeScript loader as it used to start, `npx tsx src/main.ts`, for a comparison).
 */
export function startService(dataDir: string, port: number, pgPort: number, command = ['npm', 'start']): ChildProcess {
  return startChild('service', command[0]!, command.slice(1), {
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pgPort),
    HOST,
    PUBLIC_URL: `http://${HOST}:${port}`,
    LOG_LEVEL: 'warn',
    // The platform sandbox on a port of its own, so that a bench runs beside anything else.
    SANDBOX_PORT: '0',
    // The throughput run makes ~10^5 requests a minute with one key; the default limit would answer 429 instead.
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
}

/**
 * Starts the service on `dataDir` and times it from the spawn until /health answers 200 (`ms`), next to the
 * part the service reports in its banner (`reported`, seconds from its process's start, npm's own time left out).
 */
export async function timeStart(
  dataDir: string,
  port: number,
  pgPort: number,
  command?: string[],
): Promise<{ child: ChildProcess; ms: number; reported: string }> {
  const started = performance.now();
  const child = startService(dataDir, port, pgPort, command);
  let reported = '?';
  createInterface({ input: child.stdout! }).on('line', (line) => {
    reported = /is running \(\w+\) in ([\d.]+) s/.exec(line)?.[1] ?? reported;
  });
  await waitFor200(`http://${HOST}:${port}/health`, child);
  return { child, ms: Math.round(performance.now() - started), reported };
}

/** A POST to the service that must succeed; its JSON answer. */
export async function call<T>(base: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}
