/**
 * `npm run bench:http`: how long the real start command takes until /health answers (fresh and existing data
 * folder), and how many requests per second the service's authenticated `GET /profiles` serves next to a bare
 * Koa app, a Koa app that runs the same SQL through `pg` directly (the anchor: the database's own speed) and one
 * that runs the service's listProfiles, all on the same PostgreSQL: each server in its own process, the load
 * generator (autocannon) in this one. Figures only.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Koa from 'koa';
import pg from 'pg';
import { connect } from '../../src/db/database.js';
import { loadConfig } from '../../src/config.js';
import { listProfiles } from '../../src/modules/accounts/profiles.js';
import { freePort } from '../../test/support/net.js';
import { call, HOST, nodeCpuMs, serviceDatabaseUrl, startChild, stopChild, stopChildren, timeStart, waitFor200 } from './processes.js';

const SELF = fileURLToPath(import.meta.url);

let dataDir: string | undefined;

async function cleanUp(): Promise<void> {
  await stopChildren();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

/** Child mode: the bare Koa app gets its own process, as the service does, so neither shares autocannon's event loop. */
function serveBareKoa(port: number): void {
  const app = new Koa();
  app.use((ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/bare') ctx.body = { ok: true };
  });
  app.listen(port, HOST);
}

/**
 * Child mode: Koa running exactly the query of `GET /profiles` (the same function, pool size and PostgreSQL),
 * and nothing else of the pipeline: the most the service could serve for that operation.
 */
function serveKoaWithQuery(port: number, databaseUrl: string, ownerId: string): void {
  const db = connect(databaseUrl, loadConfig().databasePoolMax);
  const principal = { kind: 'apiKey', ownerId, keyId: 'bench', profileIds: null } as const;
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/profiles') ctx.body = await listProfiles(db, principal, { limit: 20, after: null });
  });
  app.listen(port, HOST);
}

/**
 * Child mode: Koa running the same list through `pg` directly (a pool of the same size, one parameterised
 * statement, the rows presented as the service presents them): the database's own speed, the anchor.
 */
function serveKoaWithPg(port: number, databaseUrl: string, ownerId: string): void {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: loadConfig().databasePoolMax });
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method !== 'GET' || ctx.path !== '/profiles') return;
    const { rows } = await pool.query(
      'SELECT id, name, description, created_at, updated_at FROM profiles WHERE owner_id = $1 AND deleted_at IS NULL ORDER BY id DESC LIMIT 21',
      [ownerId],
    );
    ctx.body = {
      data: rows.slice(0, 20).map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
      })),
      nextCursor: null,
    };
  });
  app.listen(port, HOST);
}

/** Spawn to 200, and the banner's own figure (main.ts times itself from its process's start, npm's time left out). */
async function timedStart(port: number, pgPort: number): Promise<{ child: ChildProcess; text: string }> {
  const { child, ms, reported } = await timeStart(dataDir!, port, pgPort);
  return { child, text: `${ms} ms (the service reports ${reported} s)` };
}

async function load(title: string, server: ChildProcess, url: string, headers: Record<string, string> = {}) {
  const cpuBefore = nodeCpuMs(server);
  const result = await autocannon({ url, headers, connections: 50, duration: 10 });
  return {
    title,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'server CPU µs/req': Math.round(((nodeCpuMs(server) - cpuBefore) * 1000) / result.requests.total),
    'non-2xx': result.non2xx,
    'errors+timeouts': result.errors + result.timeouts,
  };
}

async function main(): Promise<void> {
  const model = cpus()[0]?.model ?? 'unknown CPU';
  console.log(`node ${process.version}, ${availableParallelism()} cores (${model}), ${process.platform}/${process.arch}`);

  dataDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-'));
  // As root the embedded PostgreSQL runs as user `postgres`, which must be able to enter DATA_DIR (mkdtemp makes it 0700).
  chmodSync(dataDir, 0o755);
  const [port, pgPort, barePort, queryPort, pgOnlyPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];

  // 1. Cold start: the first start runs initdb and every migration; the second reuses the data folder.
  console.log(`\ncold start of \`npm start\` until GET /health answers 200:`);
  const fresh = await timedStart(port, pgPort);
  console.log(`  empty DATA_DIR (initdb + migrations): ${fresh.text}`);
  await stopChild(fresh.child);
  const existing = await timedStart(port, pgPort);
  console.log(`  existing DATA_DIR:                    ${existing.text}`);

  // 2. Throughput against the second start itself rather than boot() in this process: autocannon then has
  // this event loop to itself, and what is measured is exactly what `npm start` runs (API + worker roles).
  const base = `http://${HOST}:${port}`;
  const signedUp = await call<{ owner: { id: string }; session: { token: string } }>(base, '/auth/signup', {
    email: `bench-${Date.now()}@example.com`,
    password: 'a long bench password',
  });
  const { key } = await call<{ key: string }>(base, '/api-keys', { name: 'bench' }, signedUp.session.token);
  await call(base, '/profiles', { name: 'Bench profile' }, key);

  const bare = startChild('bare-koa', process.execPath, [...process.execArgv, SELF, '--bare-koa', String(barePort)]);
  const databaseUrl = serviceDatabaseUrl(pgPort);
  const query = startChild('koa-query', process.execPath, [
    ...process.execArgv,
    SELF,
    '--koa-query',
    String(queryPort),
    databaseUrl,
    signedUp.owner.id,
  ]);
  const pgOnly = startChild('koa-pg', process.execPath, [
    ...process.execArgv,
    SELF,
    '--koa-pg',
    String(pgOnlyPort),
    databaseUrl,
    signedUp.owner.id,
  ]);
  await waitFor200(`http://${HOST}:${barePort}/bare`, bare);
  await waitFor200(`http://${HOST}:${queryPort}/profiles`, query);
  await waitFor200(`http://${HOST}:${pgOnlyPort}/profiles`, pgOnly);

  console.log(`\nautocannon, 50 connections, 10 s each, one after the other, client in this process:`);
  const loadBefore = loadavg()[0]!.toFixed(2);
  const rows = [
    await load('bare Koa GET /bare', bare, `http://${HOST}:${barePort}/bare`),
    await load('Koa + the same SQL through pg', pgOnly, `http://${HOST}:${pgOnlyPort}/profiles`),
    await load("Koa + listProfiles (the service's query)", query, `http://${HOST}:${queryPort}/profiles`),
    await load('service GET /profiles (API key)', existing.child, `${base}/profiles`, { Authorization: `Bearer ${key}` }),
  ];
  const [pgAnchor, queryAnchor] = [rows[1]!['req/s'], rows[2]!['req/s']];
  console.table(
    rows.map((row) => ({
      ...row,
      'of pg anchor': (row['req/s'] / pgAnchor).toFixed(2),
      'of Koa + listProfiles': (row['req/s'] / queryAnchor).toFixed(2),
    })),
  );
  console.log(`load average (1 min) before: ${loadBefore}, after: ${loadavg()[0]!.toFixed(2)}`);
  // autocannon walks away from up to 50 requests still queued in the service; let them finish before the stop.
  await sleep(1000);
}

if (process.argv[2] === '--bare-koa') {
  serveBareKoa(Number(process.argv[3]));
} else if (process.argv[2] === '--koa-pg') {
  serveKoaWithPg(Number(process.argv[3]), process.argv[4]!, process.argv[5]!);
} else if (process.argv[2] === '--koa-query') {
  serveKoaWithQuery(Number(process.argv[3]), process.argv[4]!, process.argv[5]!);
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
