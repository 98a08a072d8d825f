/**
 * Webhook delivery benchmark: events × hooks fanned out to a local HTTPS receiver on 127.0.0.1.
 * Prints deliveries per second sustained (a burst of events emitted as fast as possible) and the p50/p99 time
 * from an event's commit to its receipt at about half that rate. No assertions: figures for the issue notes.
 *   npx tsx scripts/bench/webhooks.ts [hooks=5] [burstEvents=2000] [steadySeconds=5]
 *
 * Three processes, as in production: this one is the worker role (DeliveryWorker, booted as the service boots
 * it); the HTTPS receiver and the event writers (what API processes do) are children of this script, started
 * again with BENCH_ROLE set. Times on both sides are wall clock (performance.timeOrigin + performance.now()),
 * so a commit in the writer and a receipt in the receiver compare. Profile the sender alone with
 *   npx tsx --cpu-prof --cpu-prof-dir=/tmp/prof scripts/bench/webhooks.ts 5 1000
 * (the flag is not passed on to the children).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, postgresCpuSeconds } from './processes.js';

type Message =
  | { type: 'ready'; url?: string }
  | { type: 'count'; count: number }
  | { type: 'log'; seqs: number[]; at: number[]; distinctDeliveries: number; connections: number }
  | { type: 'emitted'; startedAt: number; seqs: number[]; committedAt: number[] }
  | { type: 'cpu'; seconds: number };

const wall = () => performance.timeOrigin + performance.now();
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** The event of the `seq`th emit: a post.published whose post id carries the number. */
const BENCH_POST = 'post_bench_';

if (process.env.BENCH_ROLE === 'receiver') await runReceiver();
else if (process.env.BENCH_ROLE === 'writer') await runWriter();
else await runBench();

/** The endpoint: records `seq` and the receipt time, answers 204. Counts go up every 20 ms; the log at the end. */
async function runReceiver(): Promise<void> {
  const { createServer } = await import('node:https');
  const dir = process.env.BENCH_DIR!;
  const seqs: number[] = [];
  const at: number[] = [];
  const ids = new Set<string>();
  const server = createServer(
    { key: readFileSync(`${dir}/key.pem`), cert: readFileSync(`${dir}/ca.pem`), keepAliveTimeout: 30_000 },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        at.push(wall());
        seqs.push(Number((JSON.parse(Buffer.concat(chunks).toString()).data.postId as string).slice(BENCH_POST.length)));
        ids.add(String(req.headers['x-service-delivery']));
        res.writeHead(204).end();
      });
    },
  );
  // TLS handshakes: the sender should reuse its connections, not open one per request.
  let connections = 0;
  server.on('secureConnection', () => {
    connections += 1;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  let reported = 0;
  const ticker = setInterval(() => {
    if (seqs.length !== reported) process.send!({ type: 'count', count: (reported = seqs.length) } satisfies Message);
  }, 20);
  process.on('message', (message: { type: string }) => {
    if (message.type === 'dump') process.send!({ type: 'log', seqs, at, distinctDeliveries: ids.size, connections } satisfies Message);
    if (message.type === 'cpu') process.send!({ type: 'cpu', seconds: cpuSeconds() } satisfies Message);
  });
  process.on('disconnect', () => {
    clearInterval(ticker);
    server.closeAllConnections();
    server.close();
    process.exit(0);
  });
  process.send!({ type: 'ready', url: `https://127.0.0.1:${port}/hook` } satisfies Message);
}

/** What API processes do: commit events, each in its own transaction, and note when each commit returned. */
async function runWriter(): Promise<void> {
  const { connect } = await import('../../src/db/database.js');
  const { emitEvent } = await import('../../src/modules/events/emit.js');
  const db = connect(process.env.BENCH_DATABASE_URL!, 20);
  const ownerId = process.env.BENCH_OWNER_ID!;
  await db.raw('select 1');
  async function emit(seq: number, done: { seqs: number[]; committedAt: number[] }): Promise<void> {
    await emitEvent(db, {
      ownerId,
      profileId: null,
      name: 'post.published',
      data: { postId: `${BENCH_POST}${seq}`, status: 'published', scheduledAt: null, targets: [] },
    });
    done.committedAt.push(wall());
    done.seqs.push(seq);
  }
  process.on('message', async (message: { type: string; from: number; count: number; parallel?: number; perSecond?: number }) => {
    if (message.type === 'cpu') {
      process.send!({ type: 'cpu', seconds: cpuSeconds() } satisfies Message);
      return;
    }
    const done = { seqs: [] as number[], committedAt: [] as number[] };
    const startedAt = wall();
    if (message.type === 'burst') {
      // `parallel` writers, each committing its next event as soon as the last one is in.
      let next = message.from;
      const end = message.from + message.count;
      await Promise.all(
        Array.from({ length: message.parallel! }, async () => {
          while (next < end) await emit(next++, done);
        }),
      );
    } else if (message.type === 'steady') {
      // An event every 1/perSecond s on an absolute schedule, so a late timer does not lower the rate offered.
      const pending: Promise<void>[] = [];
      for (let i = 0; i < message.count; i += 1) {
        const due = startedAt + (i * 1000) / message.perSecond!;
        const wait = due - wall();
        if (wait > 1) await new Promise((r) => setTimeout(r, wait));
        pending.push(emit(message.from + i, done));
      }
      await Promise.all(pending);
    }
    process.send!({ type: 'emitted', startedAt, ...done } satisfies Message);
  });
  process.on('disconnect', () => {
    void db.destroy().finally(() => process.exit(0));
  });
  process.send!({ type: 'ready' } satisfies Message);
}

function spawnChild(role: string, env: Record<string, string>): ChildProcess {
  const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--cpu-prof'));
  return fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, ...env, BENCH_ROLE: role },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

function nextMessage<T extends Message['type']>(child: ChildProcess, type: T): Promise<Extract<Message, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Message) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message as Extract<Message, { type: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`bench child exited (${code}) before sending ${type}`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function runBench(): Promise<void> {
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir, cpus, loadavg } = await import('node:os');
  const { randomBytes } = await import('node:crypto');
  const { generate } = await import('selfsigned');
  const { boot } = await import('../../src/boot.js');
  const { startEmbeddedPostgres } = await import('../../src/db/embedded.js');
  const { loadConfig } = await import('../../src/config.js');
  const auth = await import('../../src/modules/auth/service.js');
  const hooks = await import('../../src/modules/hooks/service.js');

  const HOOKS = Number(process.argv[2] ?? 5);
  const BURST_EVENTS = Number(process.argv[3] ?? 2000);
  const STEADY_SECONDS = Number(process.argv[4] ?? 5);

  const dir = mkdtempSync(join(tmpdir(), 'socialgate-bench-'));
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  } as never);
  writeFileSync(join(dir, 'ca.pem'), pems.cert);
  writeFileSync(join(dir, 'key.pem'), pems.private);

  const children: ChildProcess[] = [];
  // Its own top folder: the server runs as the postgres user, which cannot enter our private temp folder.
  const pgDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-pg-'));
  // Also when the process dies of an error no one awaits (a client of a database being stopped, say).
  process.on('exit', () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(pgDir, { recursive: true, force: true });
  });
  let pg: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  let shutdown: (() => Promise<void>) | undefined;
  try {
    const receiver = spawnChild('receiver', { BENCH_DIR: dir });
    children.push(receiver);
    let receivedCount = 0;
    receiver.on('message', (message: Message) => {
      if (message.type === 'count') receivedCount = message.count;
    });
    const { url } = await nextMessage(receiver, 'ready');

    pg = await startEmbeddedPostgres({ dir: pgDir, port: await freePort(), database: 'bench', persistent: false });
    // The platform sandbox (not part of delivery) on a free port rather than its fixed one.
    const base = loadConfig({ SANDBOX_PORT: '0' });
    const booted = await boot({
      ...base,
      databaseUrl: pg.url,
      logLevel: 'warn',
      dataDir: dir,
      encryptionKey: randomBytes(32).toString('base64'),
      webhooks: { ...base.webhooks, allowedCidrs: ['127.0.0.0/8'], caFile: join(dir, 'ca.pem') },
    });
    shutdown = booted.shutdown;
    const { services } = booted;

    const { owner } = await auth.signUp(services.db, { email: 'bench@example.com', password: 'bench password 123' }, 3600);
    const principal = { kind: 'session' as const, ownerId: owner.id, sessionId: 'bench' };
    for (let i = 0; i < HOOKS; i += 1) await hooks.createHook(services, principal, { url: url!, events: ['post.published'] });

    const writer = spawnChild('writer', { BENCH_DATABASE_URL: pg.url, BENCH_OWNER_ID: owner.id });
    children.push(writer);
    await nextMessage(writer, 'ready');

    const committedAt = new Map<number, number>();
    async function run(command: Record<string, unknown>): Promise<{ startedAt: number; endedAt: number }> {
      const emitted = nextMessage(writer, 'emitted');
      writer.send(command);
      const result = await emitted;
      result.seqs.forEach((seq, i) => committedAt.set(seq, result.committedAt[i]!));
      return { startedAt: result.startedAt, endedAt: result.committedAt.reduce((a, b) => Math.max(a, b), 0) };
    }
    async function waitForDeliveries(count: number): Promise<void> {
      const deadline = Date.now() + 180_000;
      while (receivedCount < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      if (receivedCount < count) console.log(`(timed out waiting: ${receivedCount} of ${count} receipts)`);
    }
    // A figure of no sample is printed as such rather than failing the whole report.
    const pct = (sorted: number[], p: number) =>
      sorted.length === 0 ? 'n/a' : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!.toFixed(0);

    // 1. Burst: every event committed as fast as 20 parallel writers manage; the worker drains the backlog.
    // CPU seconds each party spends on the burst (the database by its processes' counters): what a delivery
    // costs, whatever else the machine is doing while the bench runs.
    const cpuOf = async () => ({
      sender: cpuSeconds(),
      postgres: postgresCpuSeconds(pgDir),
      receiver: (await nextMessageAfter(receiver, { type: 'cpu' }, 'cpu')).seconds,
      writers: (await nextMessageAfter(writer, { type: 'cpu' }, 'cpu')).seconds,
    });
    const cpuBefore = await cpuOf();
    const burst = await run({ type: 'burst', from: 0, count: BURST_EVENTS, parallel: 20 });
    await waitForDeliveries(BURST_EVENTS * HOOKS);
    const cpuAfter = await cpuOf();
    const burstLog = await nextMessageAfter(receiver, { type: 'dump' }, 'log');
    const burstReceipts = burstLog.at.length;
    const burstSeconds = (burstLog.at.reduce((a, b) => Math.max(a, b), 0) - burst.startedAt) / 1000;
    const rate = burstReceipts / burstSeconds;
    const emitSeconds = (burst.endedAt - burst.startedAt) / 1000;

    // 2. Steady load at about half the sustained rate, for latency.
    const steadyFrom = BURST_EVENTS;
    const eventsPerSecond = Math.max(10, Math.floor(rate / 2 / HOOKS));
    const steadyEvents = eventsPerSecond * STEADY_SECONDS;
    const steadyRun = await run({ type: 'steady', from: steadyFrom, count: steadyEvents, perSecond: eventsPerSecond });
    await waitForDeliveries(burstReceipts + steadyEvents * HOOKS);
    const log = await nextMessageAfter(receiver, { type: 'dump' }, 'log');
    const steady = log.seqs.flatMap((seq, i) => (seq >= steadyFrom ? [log.at[i]! - committedAt.get(seq)!] : [])).sort((a, b) => a - b);
    const offeredPerSecond = (steadyEvents * HOOKS) / ((steadyRun.endedAt - steadyRun.startedAt) / 1000);

    // Where the steady time goes, by the database's clock: event insert -> fan-out transaction -> attempt start.
    const stages = (
      await services.db.raw(
        `
      SELECT extract(epoch FROM d.created_at - e.created_at) * 1000 AS fan_out, extract(epoch FROM d.delivered_at - d.created_at) * 1000 AS to_attempt
      FROM deliveries d JOIN events e ON e.id = d.event_id WHERE substr(e.data->>'postId', ?)::int >= ?`,
        [BENCH_POST.length + 1, steadyFrom],
      )
    ).rows as Array<{ fan_out: string; to_attempt: string }>;
    const fanOut = stages.map((r) => Number(r.fan_out)).sort((a, b) => a - b);
    const toAttempt = stages.map((r) => Number(r.to_attempt)).sort((a, b) => a - b);
    const rows = Number((await services.db('deliveries').count('id as n').first())!.n);
    const pairs = (BURST_EVENTS + steadyEvents) * HOOKS;
    console.log(
      `machine: ${cpus().length} cores, node ${process.version}; ${HOOKS} hooks on one owner; receiver and event writers in their own processes`,
    );
    console.log(
      `burst:  ${BURST_EVENTS} events (committed in ${emitSeconds.toFixed(2)} s) -> ${burstReceipts} deliveries in ${burstSeconds.toFixed(2)} s = ${rate.toFixed(0)} deliveries/s (emit + fan-out + send)`,
    );
    const parties = ['sender', 'postgres', 'receiver', 'writers'] as const;
    const msPerDelivery = (key: keyof typeof cpuAfter) => ((cpuAfter[key] - cpuBefore[key]) * 1000) / burstReceipts;
    // The anchor: the rate the machine's cores allow at the CPU every party spent per delivery in this run.
    const cpuBound = (cpus().length * 1000) / parties.reduce((sum, key) => sum + msPerDelivery(key), 0);
    console.log(
      `        CPU ms per delivery in the burst: ${parties.map((key) => `${key} ${msPerDelivery(key).toFixed(2)}`).join(', ')}; CPU bound of this run ${cpuBound.toFixed(0)} deliveries/s (${(rate / cpuBound).toFixed(2)} of it); load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `steady: ${eventsPerSecond * HOOKS} deliveries/s asked, ${offeredPerSecond.toFixed(0)} offered for ${STEADY_SECONDS} s -> commit-to-receipt p50 ${pct(steady, 50)} ms, p99 ${pct(steady, 99)} ms, max ${pct(steady, 100)} ms (n=${steady.length})`,
    );
    console.log(
      `        event insert -> fan-out p50 ${pct(fanOut, 50)} ms, p99 ${pct(fanOut, 99)} ms; fan-out -> attempt p50 ${pct(toAttempt, 50)} ms, p99 ${pct(toAttempt, 99)} ms`,
    );
    console.log(
      `delivery rows: ${rows} for ${pairs} (event, hook) pairs (duplicates: ${rows - pairs}); receipts: ${log.at.length}, distinct delivery ids: ${log.distinctDeliveries}; TLS connections: ${burstLog.connections} in the burst, ${log.connections} in all`,
    );
  } catch (error) {
    console.error('bench failed:', error);
    process.exitCode = 1;
  } finally {
    for (const child of children) {
      if (child.connected) child.disconnect();
      else child.kill();
    }
    await Promise.all(children.map((child) => (child.exitCode === null && child.signalCode === null ? once(child, 'exit') : undefined)));
    await shutdown?.();
    await pg?.stop();
  }
  process.exit(process.exitCode ?? 0);
}

function nextMessageAfter<T extends Message['type']>(
  child: ChildProcess,
  command: Record<string, unknown>,
  type: T,
): Promise<Extract<Message, { type: T }>> {
  const reply = nextMessage(child, type);
  child.send(command);
  return reply;
}
