/**
 * `GET /posts` with a million posts, unfiltered and by each filter (profile, account, status, time range): the first
 * page and the page after the middle of what it lists, under load (autocannon, 10 connections, BENCH_SECONDS=10 s
 * each), with the plan PostgreSQL runs for each (EXPLAIN ANALYZE of the very statements listPosts sends).
 *   npx tsx scripts/bench/posts.ts [posts=1000000]
 * The service runs in its own process (`npx tsx src/main.ts`) on a fresh data folder; the load generator here.
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connect, type Db } from '../../src/db/database.js';
import { encodeKeyset } from '../../src/lib/pagination.js';
import { listPosts } from '../../src/modules/publishing/read.js';
import { freePort } from '../../test/support/net.js';
import { call, HOST, serviceDatabaseUrl, startService, stopChildren, waitFor200 } from './processes.js';
import { seedPosts } from './seed-posts.js';

const COUNT = Number(process.argv[2] ?? 1_000_000);

let dataDir: string | undefined;

/** The plan of every statement listPosts sends for `query`, as EXPLAIN ANALYZE prints it. */
async function plansOf(db: Db, ownerId: string, query: ListQuery): Promise<string[]> {
  const statements: Array<{ sql: string; bindings: unknown[] }> = [];
  const capture = (statement: { sql: string; bindings: unknown[] }) => statements.push(statement);
  db.on('query', capture);
  try {
    await listPosts(db, { kind: 'apiKey', ownerId, keyId: 'bench', profileIds: null }, query);
  } finally {
    db.off('query', capture);
  }
  // The statements as sent (with $n placeholders), on a connection of their own.
  const connection = (await db.client.acquireConnection()) as {
    query(text: string, values: unknown[]): Promise<{ rows: Array<{ 'QUERY PLAN': string }> }>;
  };
  try {
    const plans: string[] = [];
    for (const { sql, bindings } of statements) {
      const { rows } = await connection.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, bindings);
      // The post ids of the targets' lookup are elided: a page of them says nothing.
      plans.push(rows.map((row) => `    ${row['QUERY PLAN'].replace(/'\{post_[^}]*\}'/, "'{…}'")}`).join('\n'));
    }
    return plans;
  } finally {
    await db.client.releaseConnection(connection);
  }
}

type ListQuery = Parameters<typeof listPosts>[2];

/**
 * The cursor after the middle post of those `query` lists: a page half way down its own cursor chain. The filters
 * are written out here on their own, not taken from listPosts, so that a page that starts elsewhere would show.
 */
async function middleCursor(db: Db, ownerId: string, query: ListQuery): Promise<string | undefined> {
  const matches = db('posts').where({ ownerId });
  if (query.profileId) matches.where({ profileId: query.profileId });
  if (query.status) matches.where({ status: query.status });
  if (query.from) matches.where('scheduledAt', '>=', new Date(query.from));
  if (query.to) matches.where('scheduledAt', '<', new Date(query.to));
  if (query.accountId) matches.whereIn('id', db('postTargets').where({ accountId: query.accountId }).select('postId'));
  const [{ count } = { count: '0' }] = (await matches.clone().count({ count: '*' })) as Array<{ count: string }>;
  const middle = (await matches
    .orderBy([
      { column: 'scheduledAt', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .offset(Math.floor(Number(count) / 2))
    .first('scheduledAt', 'id')) as { scheduledAt: Date; id: string } | undefined;
  return middle && encodeKeyset([new Date(middle.scheduledAt).toISOString(), middle.id]);
}

async function load(path: string, key: string) {
  const result = await autocannon({
    url: path,
    headers: { Authorization: `Bearer ${key}` },
    connections: 10,
    duration: Number(process.env.BENCH_SECONDS ?? 10),
  });
  return {
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    'non-2xx': result.non2xx,
  };
}

async function main(): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-posts-'));
  chmodSync(dataDir, 0o755); // the embedded PostgreSQL's user must enter it when run as root
  const [port, pgPort] = [await freePort(), await freePort()];
  const service: ChildProcess = startService(dataDir, port, pgPort);
  const base = `http://${HOST}:${port}`;
  await waitFor200(`${base}/health`, service);
  const signedUp = await call<{ owner: { id: string }; session: { token: string } }>(base, '/auth/signup', {
    email: `bench-${Date.now()}@example.com`,
    password: 'a long bench password',
  });
  const ownerId = signedUp.owner.id;
  const { key } = await call<{ key: string }>(base, '/api-keys', { name: 'bench' }, signedUp.session.token);

  const db = connect(serviceDatabaseUrl(pgPort), 4);
  try {
    const started = performance.now();
    const { profileIds, accountIds } = await seedPosts(db, ownerId, COUNT, (done) => process.stdout.write(`\rseeding: ${done} posts`));
    console.log(` in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    const middle = new Date(Date.now() - Math.floor(COUNT / 2) * 60_000);
    const weekBefore = new Date(middle.getTime() - 7 * 86_400_000);
    const filters: Array<[string, ListQuery]> = [
      ['no filter', {}],
      ['by profile (1 of 9)', { profileId: profileIds[3]! }],
      ['by profile (only the oldest 1 %)', { profileId: profileIds.at(-1)! }],
      ['by account (1 of 18)', { accountId: accountIds[7]! }],
      ['by account (only the oldest 0.5 %)', { accountId: accountIds.at(-1)! }],
      ['by status failed (5 %)', { status: 'failed' }],
      ['by status partial (only the oldest 1 %)', { status: 'partial' }],
      ['time range (one week)', { from: weekBefore.toISOString(), to: middle.toISOString() }],
      [
        'profile + status + time range',
        { profileId: profileIds[3]!, status: 'failed', from: weekBefore.toISOString(), to: middle.toISOString() },
      ],
    ];
    const cases: Array<[string, ListQuery]> = [];
    for (const [title, query] of filters) {
      cases.push([`${title}, first page`, query]);
      const cursor = await middleCursor(db, ownerId, query);
      if (cursor) cases.push([`${title}, middle page`, { ...query, cursor }]);
    }
    const rows = [];
    const plans: string[] = [];
    const loadBefore = loadavg()[0]!.toFixed(2);
    for (const [title, query] of cases) {
      const search = new URLSearchParams(query as Record<string, string>).toString();
      rows.push({ case: title, ...(await load(`${base}/posts${search ? `?${search}` : ''}`, key)) });
      plans.push(`${title}:\n${(await plansOf(db, ownerId, query)).join('\n\n')}`);
    }
    console.log(`\nGET /posts with ${COUNT} posts, autocannon 10 connections, ${process.env.BENCH_SECONDS ?? 10} s each:`);
    console.table(rows);
    console.log(`load average (1 min) before: ${loadBefore}, after: ${loadavg()[0]!.toFixed(2)}`);
    console.log(`\nplans (EXPLAIN ANALYZE of each statement listPosts sends):\n\n${plans.join('\n\n')}`);
  } finally {
    await db.destroy();
  }
}

process.once('SIGINT', () => void stopChildren().finally(() => process.exit(130)));
main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopChildren();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.exit();
  });
