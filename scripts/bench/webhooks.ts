/**
 * Webhook delivery benchmark: events × hooks fanned out to a local HTTPS receiver on 127.0.0.1.
 * Prints deliveries per second sustained (a burst of events emitted as fast as possible) and the p50/p99 time
 * from an event's commit to its receipt at about half that rate. No assertions: figures for the issue notes.
 *   npx tsx scripts/bench/webhooks.ts [hooks=5] [burstEvents=2000]
 */
import { once } from 'node:events';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';
import { boot } from '../../src/boot.js';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { loadConfig } from '../../src/lib/config.js';
import { emitEvent } from '../../src/modules/events/emit.js';
import * as auth from '../../src/modules/auth/service.js';
import * as hooks from '../../src/modules/hooks/service.js';

const HOOKS = Number(process.argv[2] ?? 5);
const BURST_EVENTS = Number(process.argv[3] ?? 2000);

const dir = mkdtempSync(join(tmpdir(), 'socialgate-bench-'));
const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
  keySize: 2048, extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
} as never);
writeFileSync(join(dir, 'ca.pem'), pems.cert);

// Receipt times keyed by `seq` in the event data; the receiver only records and answers 204.
const received: Array<{ seq: number; at: number }> = [];
const receiver = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    received.push({ seq: JSON.parse(Buffer.concat(chunks).toString()).data.seq, at: performance.now() });
    res.writeHead(204).end();
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const url = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

// Its own top folder: the server runs as the postgres user, which cannot enter our private temp folder.
const pgDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-pg-'));
const pg = await startEmbeddedPostgres({ dir: pgDir, port: 20000 + Math.floor(Math.random() * 20000), database: 'bench', persistent: false });
const base = loadConfig({});
const { services, shutdown } = await boot({
  ...base, databaseUrl: pg.url, logLevel: 'warn', dataDir: dir, encryptionKey: randomBytes(32).toString('base64'),
  webhooks: { ...base.webhooks, allowedCidrs: ['127.0.0.0/8'], caFile: join(dir, 'ca.pem') },
});

try {
  const { owner } = await auth.signUp(services.db, { email: 'bench@example.com', password: 'bench password 123' }, 3600);
  const principal = { kind: 'session' as const, ownerId: owner.id, sessionId: 'bench' };
  for (let i = 0; i < HOOKS; i += 1) await hooks.createHook(services, principal, { url, events: ['post.published'] });

  const committedAt = new Map<number, number>();
  async function emit(seq: number): Promise<void> {
    await emitEvent(services.db, { ownerId: owner.id, profileId: null, name: 'post.published', data: { seq } });
    committedAt.set(seq, performance.now());
  }
  async function waitForDeliveries(count: number): Promise<void> {
    const deadline = Date.now() + 120_000;
    while (received.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  }
  function latencies(fromSeq: number): number[] {
    return received.filter((r) => r.seq >= fromSeq).map((r) => r.at - committedAt.get(r.seq)!).sort((a, b) => a - b);
  }
  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!.toFixed(0);

  // 1. Burst: every event committed as fast as 20 parallel writers manage; the worker drains the backlog.
  const burstStart = performance.now();
  for (let seq = 0; seq < BURST_EVENTS; seq += 20) {
    await Promise.all(Array.from({ length: Math.min(20, BURST_EVENTS - seq) }, (_, k) => emit(seq + k)));
  }
  await waitForDeliveries(BURST_EVENTS * HOOKS);
  const burstSeconds = (performance.now() - burstStart) / 1000;
  const rate = received.length / burstSeconds;

  // 2. Steady load at about half the sustained rate, for latency.
  const steadyFrom = BURST_EVENTS;
  const eventsPerSecond = Math.max(10, Math.floor(rate / 2 / HOOKS));
  const steadyEvents = eventsPerSecond * 5;
  const before = received.length;
  for (let i = 0; i < steadyEvents; i += 1) {
    void emit(steadyFrom + i);
    await new Promise((r) => setTimeout(r, 1000 / eventsPerSecond));
  }
  await waitForDeliveries(before + steadyEvents * HOOKS);
  const steady = latencies(steadyFrom);

  const duplicates = (await services.db('deliveries').count('id as n').first())!.n as string;
  console.log(`machine: ${cpus().length} cores, node ${process.version}; ${HOOKS} hooks on one owner, local HTTPS receiver`);
  console.log(`burst:  ${BURST_EVENTS} events -> ${received.length - 0 >= BURST_EVENTS * HOOKS ? BURST_EVENTS * HOOKS : received.length} deliveries in ${burstSeconds.toFixed(2)} s = ${rate.toFixed(0)} deliveries/s (emit + fan-out + send)`);
  console.log(`steady: ${eventsPerSecond * HOOKS} deliveries/s offered for 5 s -> commit-to-receipt p50 ${pct(steady, 50)} ms, p99 ${pct(steady, 99)} ms (n=${steady.length})`);
  console.log(`delivery rows: ${duplicates} for ${(BURST_EVENTS + steadyEvents) * HOOKS} (event, hook) pairs; receipts: ${received.length}`);
} finally {
  await shutdown();
  await pg.stop();
  receiver.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(pgDir, { recursive: true, force: true });
}
process.exit(0);
