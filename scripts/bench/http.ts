/**
 * `npm run bench:http`: how long the real start command takes until /health answers (fresh and existing data
 * folder), and how many requests per second the whole pipeline serves next to a bare Koa app. Figures only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Koa from 'koa';
import { freePort } from '../../test/support/net.js';

const HOST = '127.0.0.1';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const STOP_GRACE_MS = 20_000;

const children = new Set<ChildProcess>();
let dataDir: string | undefined;

/** Child mode: the bare Koa app gets its own process, as the service does, so neither shares autocannon's event loop. */
function serveBareKoa(port: number): void {
  const app = new Koa();
  app.use((ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/bare') ctx.body = { ok: true };
  });
  app.listen(port, HOST);
}

function startChild(label: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
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

/** A process group's members other than PostgreSQL's, from /proc (Linux). */
function membersButPostgres(pgid: number): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).flatMap((pid) => {
    try {
      // "pid (comm) state ppid pgrp …"; comm may hold spaces, so the fields are counted after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      return Number(stat.slice(close + 2).split(' ')[2]) === pgid && comm !== 'postgres' ? [Number(pid)] : [];
    } catch {
      return []; // gone meanwhile
    }
  });
}

/**
 * SIGINT as Ctrl-C on `npm start` would send it, to every process of the group but the embedded PostgreSQL:
 * main.ts stops that itself, after its pools, and a Ctrl-C that also reaches PostgreSQL makes the two
 * shutdowns race. Then wait until the whole group is gone (npx may exit before the service and PostgreSQL
 * have), and SIGKILL it if that takes too long.
 */
async function stopChild(child: ChildProcess): Promise<void> {
  children.delete(child);
  const pgid = child.pid;
  if (pgid === undefined || !groupAlive(pgid)) return;
  for (const pid of membersButPostgres(pgid)) {
    try {
      process.kill(pid, 'SIGINT');
    } catch { /* exited meanwhile */ }
  }
  const deadline = performance.now() + STOP_GRACE_MS;
  while (groupAlive(pgid) && performance.now() < deadline) await sleep(50);
  if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  while (groupAlive(pgid)) await sleep(50);
}

async function cleanUp(): Promise<void> {
  await Promise.all([...children].map(stopChild));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

/** Polls until `url` answers 200; a child that exits first fails the wait instead of letting it run to the deadline. */
async function waitFor200(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the process exited (${child.exitCode ?? child.signalCode}) before ${url} answered`);
    const status = await fetch(url, { signal: AbortSignal.timeout(2000) }).then((res) => res.status, () => 0);
    if (status === 200) return;
    await sleep(10);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

function startService(port: number, pgPort: number): ChildProcess {
  return startChild('service', 'npx', ['tsx', 'src/main.ts'], {
    DATA_DIR: dataDir, PORT: String(port), EMBEDDED_PG_PORT: String(pgPort), HOST, PUBLIC_URL: `http://${HOST}:${port}`,
    LOG_LEVEL: 'warn',
    // The throughput run makes ~10^5 requests a minute with one key; the default limit would answer 429 instead.
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
}

/** Spawn to 200, and the banner's own figure: main.ts times itself once its imports are loaded, so without npx, tsx and module loading. */
async function timeStart(port: number, pgPort: number): Promise<{ child: ChildProcess; text: string }> {
  const started = performance.now();
  const child = startService(port, pgPort);
  let reported = '?';
  createInterface({ input: child.stdout! }).on('line', (line) => {
    reported = /is running \(\w+\) in ([\d.]+) s/.exec(line)?.[1] ?? reported;
  });
  await waitFor200(`http://${HOST}:${port}/health`, child);
  return { child, text: `${Math.round(performance.now() - started)} ms (the service reports ${reported} s)` };
}

async function call<T>(base: string, path: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  if (!res.ok) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

async function load(title: string, url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, headers, connections: 50, duration: 10 });
  return {
    title, 'req/s': Math.round(result.requests.average), 'p50 ms': result.latency.p50, 'p99 ms': result.latency.p99,
    'non-2xx': result.non2xx, 'errors+timeouts': result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  const model = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`node ${process.version}, ${availableParallelism()} cores (${model}), ${process.platform}/${process.arch}`);

  dataDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-'));
  // As root the embedded PostgreSQL runs as user `postgres`, which must be able to enter DATA_DIR (mkdtemp makes it 0700).
  chmodSync(dataDir, 0o755);
  const [port, pgPort, barePort] = [await freePort(), await freePort(), await freePort()];

  // 1. Cold start: the first start runs initdb and every migration; the second reuses the data folder.
  console.log(`\ncold start of \`npx tsx src/main.ts\` until GET /health answers 200:`);
  const fresh = await timeStart(port, pgPort);
  console.log(`  empty DATA_DIR (initdb + migrations): ${fresh.text}`);
  await stopChild(fresh.child);
  const existing = await timeStart(port, pgPort);
  console.log(`  existing DATA_DIR:                    ${existing.text}`);

  // 2. Throughput against the second start itself rather than boot() in this process: autocannon then has
  // this event loop to itself, and what is measured is exactly what `npm start` runs (API + worker roles).
  const base = `http://${HOST}:${port}`;
  const signedUp = await call<{ session: { token: string } }>(base, '/auth/signup', {
    email: `bench-${Date.now()}@example.com`, password: 'a long bench password',
  });
  const { key } = await call<{ key: string }>(base, '/api-keys', { name: 'bench' }, signedUp.session.token);
  await call(base, '/profiles', { name: 'Bench profile' }, key);

  const bare = startChild('bare-koa', process.execPath, [...process.execArgv, SELF, '--bare-koa', String(barePort)]);
  await waitFor200(`http://${HOST}:${barePort}/bare`, bare);

  console.log(`\nautocannon, 50 connections, 10 s each, client in this process:`);
  const rows = [
    await load('bare Koa GET /bare', `http://${HOST}:${barePort}/bare`),
    await load('service GET /profiles (API key)', `${base}/profiles`, { Authorization: `Bearer ${key}` }),
  ];
  console.table(rows);
  // autocannon walks away from up to 50 requests still queued in the service; let them finish before the stop.
  await sleep(1000);
}

if (process.argv[2] === '--bare-koa') {
  serveBareKoa(Number(process.argv[3]));
} else {
  // The children have their own process groups, so Ctrl-C here has to stop them.
  process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));
  main()
    .then(cleanUp, async (error) => {
      console.error(error);
      process.exitCode = 1;
      await cleanUp();
    })
    .finally(() => process.exit());
}
