/**
 * Generative-AI benchmark: 1,000 copy tasks and 200 image tasks against the sandbox provider. Prints, per kind,
 * tasks/s, p50/p99 from request to `succeeded` (the task's own createdAt → completedAt, and the wall time of a
 * `Prefer: wait=60` request), the provider's own time for the same calls made directly (so what the service adds
 * can be read), and the service's CPU per task. No assertions: figures for the issue notes.
 *   npx tsx scripts/bench/ai.ts [copy=1000] [images=200] [concurrency=50]
 *
 * Three processes: this one (the clients), the sandbox provider (a child, so its work is not the service's), and
 * the service as `npm start` runs it (API and worker roles, embedded PostgreSQL) configured with the sandbox as
 * its provider. The service's CPU is read from /proc for its Node processes, PostgreSQL excluded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { freePort } from '../../test/support/net.js';
import { call, HOST, nodeCpuMs, startChild, stopChildren, waitFor200 } from './processes.js';
import { forkSandbox, percentile } from './service.js';

await runBench();

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms`;
}

/** Runs `count` calls, `concurrency` at a time; each one's duration in ms. */
async function pool(count: number, concurrency: number, one: (index: number) => Promise<number>): Promise<number[]> {
  const durations: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) durations.push(await one(next++));
    }),
  );
  return durations;
}

async function runBench(): Promise<void> {
  const { SANDBOX_AI_KEY, SANDBOX_MODELS } = await import('../../src/sandbox/ai/catalogue.js');
  const COPY = Number(process.argv[2] ?? 1000);
  const IMAGES = Number(process.argv[3] ?? 200);
  const CONCURRENCY = Number(process.argv[4] ?? 50);

  const dataDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-ai-'));
  const sandboxChild = await forkSandbox();
  const sandboxUrl = sandboxChild.url;
  const [port, pgPort] = [await freePort(), await freePort()];
  const service = startChild('service', 'npx', ['tsx', 'src/main.ts'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    EMBEDDED_PG_PORT: String(pgPort),
    HOST,
    PUBLIC_URL: `http://${HOST}:${port}`,
    LOG_LEVEL: 'warn',
    SANDBOX_PORT: '0',
    RATE_LIMIT_PER_MINUTE: '100000000',
    AI_PROVIDERS: JSON.stringify([
      { name: 'bench-sandbox', baseUrl: `${sandboxUrl}/ai/v1`, apiKey: SANDBOX_AI_KEY, models: SANDBOX_MODELS },
    ]),
  });
  const api = `http://${HOST}:${port}`;
  try {
    await waitFor200(`${api}/health`, service);
    const { session } = await call<{ session: { token: string } }>(api, '/auth/signup', {
      email: 'bench@example.com',
      password: 'bench password 123',
    });
    const token = session.token;
    const provider = new OpenAI({ baseURL: `${sandboxUrl}/ai/v1`, apiKey: SANDBOX_AI_KEY, maxRetries: 0 });

    const kinds = [
      {
        kind: 'copy',
        count: COPY,
        body: (i: number) => ({ prompt: `Announce our winter blend number ${i}, with cocoa and orange notes.`, includeHashtags: true }),
        direct: (i: number) =>
          provider.chat.completions.create({
            model: 'sandbox-copy',
            messages: [
              { role: 'system', content: 'Length: at most 1000 characters.\nEnd with two to four relevant hashtags.' },
              { role: 'user', content: `Announce our winter blend number ${i}, with cocoa and orange notes.` },
            ],
          }),
      },
      {
        kind: 'image',
        count: IMAGES,
        body: (i: number) => ({ prompt: `A flat-lay of coffee beans, picture ${i}` }),
        direct: (i: number) =>
          provider.images.generate({ model: 'sandbox-image', prompt: `A flat-lay of coffee beans, picture ${i}`, size: '1024x1024' }),
      },
    ] as const;

    for (const { kind, count, body, direct } of kinds) {
      // Warm-up: a few of each, so that first-call costs (the model list, JIT) are not in the figures.
      await pool(5, 5, async (i) => {
        await call(api, `/ai/generate-${kind}`, body(i), token);
        return 0;
      });
      const providerTimes = await pool(count, CONCURRENCY, async (i) => {
        const start = performance.now();
        await direct(i);
        return performance.now() - start;
      });
      const cpuBefore = nodeCpuMs(service);
      const started = performance.now();
      const tasks: Array<{ createdAt: string; completedAt: string; status: string }> = [];
      const wallTimes = await pool(count, CONCURRENCY, async (i) => {
        const start = performance.now();
        const res = await fetch(`${api}/ai/generate-${kind}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, Prefer: 'wait=60' },
          body: JSON.stringify(body(i)),
        });
        const task = (await res.json()) as { createdAt: string; completedAt: string; status: string };
        tasks.push(task);
        return performance.now() - start;
      });
      const seconds = (performance.now() - started) / 1000;
      const cpuMs = nodeCpuMs(service) - cpuBefore;
      const failed = tasks.filter((task) => task.status !== 'succeeded').length;
      const taskTimes = tasks.filter((task) => task.completedAt).map((task) => Date.parse(task.completedAt) - Date.parse(task.createdAt));
      console.log(`\n${kind}: ${count} tasks (${CONCURRENCY} at a time), ${failed} not succeeded`);
      console.log(`  throughput          ${(count / seconds).toFixed(1)} tasks/s`);
      console.log(`  request→succeeded   ${summary(taskTimes)}  (task createdAt → completedAt)`);
      console.log(`  Prefer: wait call   ${summary(wallTimes)}  (wall time of the one request)`);
      console.log(`  provider alone      ${summary(providerTimes)}  (the same calls made directly, same concurrency)`);
      console.log(`  service CPU         ${(cpuMs / count).toFixed(2)} ms per task (${cpuMs} ms in all, 10 ms ticks)`);
    }
  } finally {
    await stopChildren();
    sandboxChild.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
