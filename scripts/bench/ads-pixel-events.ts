/**
 * Pixel events benchmark on short_video_ads (TikTok's Events API 2.0): `events` server events (10,000 by default)
 * sent through `POST /ads/pixel-events` in batches of `batch`, `concurrency` requests at a time, each event with its
 * own event id and a plain email the service normalises and hashes. Measured: events accepted by the platform per
 * second, p50/p99 per request, and CPU per event of the service (this process) and of the sandbox (its child
 * process), whose CPU alone bounds the rate it could take. No assertions: figures for the issue notes.
 *   npx tsx scripts/bench/ads-pixel-events.ts [events=10000] [batch=500] [concurrency=4]
 */
import { percentile, startAdAccountBench } from './service.js';

await runBench();

async function runBench(): Promise<void> {
  const EVENTS = Number(process.argv[2] ?? 10_000);
  const BATCH = Number(process.argv[3] ?? 500);
  const CONCURRENCY = Number(process.argv[4] ?? 4);
  const { call, sandbox, key, adAccountId, stop } = await startAdAccountBench();
  try {
    const pixel = await call('POST', '/ads/pixels', key, { adAccountId, name: 'Bench pixel' });

    const batches = Array.from({ length: Math.ceil(EVENTS / BATCH) }, (_, index) => {
      const first = index * BATCH;
      return Array.from({ length: Math.min(BATCH, EVENTS - first) }, (__, offset) => ({
        eventName: 'Purchase',
        eventTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
        actionSource: 'website',
        eventSourceUrl: 'https://acme-coffee.example/checkout/thank-you',
        eventId: `bench-${first + offset}`,
        userData: { em: [`Person.${first + offset}@Example.com`], clientUserAgent: 'Mozilla/5.0 (X11; Linux x86_64)' },
        customData: { value: 3490, currency: 'USD' },
      }));
    });
    const latencies: number[] = [];
    let accepted = 0;
    let next = 0;
    const cpu = process.cpuUsage();
    const sandboxCpu = sandbox.cpuSeconds();
    const at = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < batches.length) {
          const events = batches[next++]!;
          const started = performance.now();
          const result = await call('POST', '/ads/pixel-events', key, { adAccountId, pixelId: pixel.id, hashed: false, events });
          latencies.push(performance.now() - started);
          accepted += result.eventsReceived as number;
        }
      }),
    );
    const seconds = (performance.now() - at) / 1000;
    const used = process.cpuUsage(cpu);
    const serviceCpu = (used.user + used.system) / 1e6;
    const sandboxUsed = sandbox.cpuSeconds() - sandboxCpu;
    latencies.sort((a, b) => a - b);
    const ms = (value: number) => `${value.toFixed(0)} ms`;
    console.log(
      `${EVENTS} events in ${batches.length} requests of ${BATCH} (${CONCURRENCY} at a time): ${accepted} accepted in ${seconds.toFixed(2)} s, ${(accepted / seconds).toFixed(0)} events/s; per request p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}`,
    );
    console.log(
      `CPU per event: service ${((serviceCpu / EVENTS) * 1e6).toFixed(0)} µs, sandbox ${((sandboxUsed / EVENTS) * 1e6).toFixed(0)} µs; the sandbox alone could take ${(EVENTS / sandboxUsed).toFixed(0)} events/s (anchor: its CPU in this run)`,
    );
  } finally {
    await stop();
  }
}
