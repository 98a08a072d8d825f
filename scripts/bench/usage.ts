/**
 * `npx tsx scripts/bench/usage.ts`: what counting usage costs the hottest path. Two API processes of the service
 * on the same PostgreSQL, alike but for one thing: one counts each request (`services.usage.record`, a map
 * increment, flushed every `USAGE_FLUSH_MS`), the other has its recorder's `record` replaced by a no-op here, in
 * the bench's child — nothing in the service turns counting off. `GET /profiles` with an API key is loaded on each
 * in turn, several rounds interleaved so that a busy machine weighs on both alike; the figures are printed side by
 * side with their ratio (the bar: counting on within 5 % of counting off).
 */
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createApp } from '../../src/app.js';
import { boot } from '../../src/boot.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/lib/logger.js';
import { UsageRecorder } from '../../src/modules/usage/recorder.js';
import { freePort } from '../../test/support/net.js';
import { call, HOST, serviceDatabaseUrl, startChild, startService, stopChildren, waitFor200 } from './processes.js';

const SELF = fileURLToPath(import.meta.url);
const ROUNDS = 3;
const SECONDS = 5;

let dataDir: string | undefined;

/** Child mode: the service's API role on `databaseUrl`, counting (`on`) or with `record` a no-op (`off`). */
async function serve(counting: 'on' | 'off', port: number, databaseUrl: string): Promise<void> {
  const config = { ...loadConfig({ ...process.env, DATABASE_URL: databaseUrl, SANDBOX: 'off', SOCIALGATE_ROLE: 'api' }) };
  const { services } = await boot(config);
  if (counting === 'off') services.usage.record = () => {};
  createApp(services).listen(port, HOST);
}

async function requestsPerSecond(url: string, key: string): Promise<number> {
  const result = await autocannon({ url, headers: { Authorization: `Bearer ${key}` }, connections: 20, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/**
 * What one `record` costs in this process, without HTTP: a figure a busy machine barely moves, beside the
 * throughput pair that it moves a lot. It never flushes (no timer started), so it needs no database.
 */
function recordCost(): number {
  const recorder = new UsageRecorder(undefined as never, createLogger('silent'), 60_000);
  const calls = 1_000_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i += 1) recorder.record(`own_${i % 1000}`, i % 3 === 0 ? null : `prof_${i % 50}`, 'apiRequests');
  return Number(process.hrtime.bigint() - started) / calls;
}

async function main(): Promise<void> {
  console.log(`node ${process.version}, ${availableParallelism()} cores`);
  console.log(`one services.usage.record call: ${recordCost().toFixed(0)} ns (1,000,000 calls, 1,000 owners)`);
  dataDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-usage-'));
  chmodSync(dataDir, 0o755);
  const [port, pgPort, onPort, offPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  // The real start command makes and migrates the database; the two measured processes share it.
  const service = startService(dataDir, port, pgPort);
  await waitFor200(`http://${HOST}:${port}/health`, service);
  const base = `http://${HOST}:${port}`;
  const signedUp = await call<{ session: { token: string } }>(base, '/auth/signup', {
    email: `bench-${Date.now()}@example.com`,
    password: 'a long bench password',
  });
  const { key } = await call<{ key: string }>(base, '/api-keys', { name: 'bench' }, signedUp.session.token);
  await call(base, '/profiles', { name: 'Bench profile' }, key);

  const env = { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', USAGE_FLUSH_MS: '1000', PUBLIC_URL: base };
  const child = (counting: 'on' | 'off', childPort: number): ChildProcess =>
    startChild(
      `counting ${counting}`,
      process.execPath,
      [...process.execArgv, SELF, '--serve', counting, String(childPort), serviceDatabaseUrl(pgPort)],
      env,
    );
  const on = child('on', onPort);
  const off = child('off', offPort);
  await waitFor200(`http://${HOST}:${onPort}/health`, on);
  await waitFor200(`http://${HOST}:${offPort}/health`, off);
  // Warm both (JIT, pools) before measuring.
  await requestsPerSecond(`http://${HOST}:${onPort}/profiles`, key);
  await requestsPerSecond(`http://${HOST}:${offPort}/profiles`, key);

  const figures = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which goes first, so neither always runs on the warmer or the busier half of a round.
    const order: Array<'on' | 'off'> = round % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
    for (const counting of order)
      figures[counting].push(await requestsPerSecond(`http://${HOST}:${counting === 'on' ? onPort : offPort}/profiles`, key));
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  console.log(`\nGET /profiles, autocannon 20 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s per process:`);
  console.table({
    'counting on': { 'req/s (mean)': Math.round(mean(figures.on)), rounds: figures.on.map(Math.round).join(' / ') },
    'counting off': { 'req/s (mean)': Math.round(mean(figures.off)), rounds: figures.off.map(Math.round).join(' / ') },
  });
  const ratio = mean(figures.on) / mean(figures.off);
  console.log(`counting on / counting off: ${(ratio * 100).toFixed(1)} % (${ratio >= 0.95 ? 'within' : 'NOT within'} 5 %)`);
  const perRequestNs = 1e9 / mean(figures.off);
  console.log(`a request takes ${(perRequestNs / 1000).toFixed(0)} µs of wall time at that rate; counting adds one record call to it`);
}

if (process.argv[2] === '--serve') {
  void serve(process.argv[3] as 'on' | 'off', Number(process.argv[4]), process.argv[5]!);
} else {
  const cleanUp = async () => {
    await stopChildren();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanUp().finally(() => process.exit(130)));
  main()
    .then(cleanUp, async (error) => {
      console.error(error);
      process.exitCode = 1;
      await cleanUp();
    })
    .finally(() => process.exit());
}
