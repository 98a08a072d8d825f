/**
 * Bulk scheduling benchmark: `POST /posts/batch` with full batches of posts to sandbox bots, scheduled an hour ahead
 * (each checked, then created with its target and its `post.scheduled` event). Prints the posts created per second
 * over HTTP, with the batches' latency (p50/p99) and the PostgreSQL CPU used. No assertions: figures for the issue
 * notes.
 *   npx tsx scripts/bench/posts-batch.ts [batches=20] [size=500] [parallel=2] [bots=10]
 *
 * The service (API and worker roles, as `npm start` boots them, on its own embedded PostgreSQL) runs in this process;
 * the bot platform (the sandbox) is a child process, used only to connect the bots.
 */
import { cpus } from 'node:os';
import { benchOwnerKey, connectSandboxBot, forkSandbox, percentile, startBenchService } from './service.js';

await runBench();

async function runBench(): Promise<void> {
  const BATCHES = Number(process.argv[2] ?? 20);
  const SIZE = Number(process.argv[3] ?? 500);
  const PARALLEL = Number(process.argv[4] ?? 2);
  const BOTS = Number(process.argv[5] ?? 10);

  const sandboxChild = await forkSandbox();
  const { services, call, postgresCpuSeconds, stop } = await startBenchService({ BOTCHAT_API_URL: `${sandboxChild.url}/botchat` });
  try {
    const key = await benchOwnerKey(call);
    const profileId = (await call('POST', '/profiles', key, { name: 'Bench' })).id as string;
    const accounts: string[] = [];
    for (let i = 0; i < BOTS; i += 1) accounts.push(await connectSandboxBot(call, sandboxChild.url, key, profileId));
    const at = new Date(Math.ceil((Date.now() + 3_600_000) / 1000) * 1000).toISOString();
    const batch = (b: number) => ({
      posts: Array.from({ length: SIZE }, (_, i) => ({
        text: `batch ${b} post ${i}`,
        accountIds: [accounts[(b * SIZE + i) % BOTS]],
        platformOptions: { botchat: { chatIds: [String(1000 + (i % 50))] } },
        scheduledAt: at,
      })),
    });
    // Warm-up: the first requests compile the validators and fill the pools.
    await call('POST', '/posts/batch', key, batch(BATCHES));

    const latencies: number[] = [];
    const cpuBefore = postgresCpuSeconds();
    const started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let b = next++; b < BATCHES; b = next++) {
          const one = performance.now();
          const created = await call('POST', '/posts/batch', key, batch(b));
          if (created.data.length !== SIZE) throw new Error(`batch ${b}: ${created.data.length} posts created of ${SIZE}`);
          latencies.push(performance.now() - one);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const stored = Number((await services.db('posts').count({ n: '*' }))[0]!.n);
    console.log(
      [
        `${BATCHES} batches of ${SIZE} posts (${PARALLEL} at a time, ${BOTS} bots): ${BATCHES * SIZE} posts in ${seconds.toFixed(2)} s = ${((BATCHES * SIZE) / seconds).toFixed(0)} posts/s`,
        `batch latency: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`,
        `posts stored: ${stored} (with the warm-up batch); PostgreSQL CPU ${(postgresCpuSeconds() - cpuBefore).toFixed(1)} s`,
        `machine: ${cpus().length} cores`,
      ].join('\n'),
    );
  } finally {
    await stop();
    sandboxChild.stop();
  }
}
