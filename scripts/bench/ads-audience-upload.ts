/**
 * Audience upload benchmark on short_video_ads: `people` people (1,000,000 by default) added to a customer list
 * over HTTP as one NDJSON body (`POST /ads/audiences/{audienceId}/people`), generated as it is sent (the client
 * holds none of it), read by the service line by line, normalised, hashed and sent to the sandbox in files of
 * 10,000. Measured: the time of the whole upload, people/s, and the service process's peak RSS and heap above the
 * baseline before it (sampled every 20 ms; the sandbox runs in a child process and is not counted). No
 * assertions: figures for the issue notes.
 *   npx tsx scripts/bench/ads-audience-upload.ts [people=1000000]
 */
import { startAdAccountBench } from './service.js';

await runBench();

async function runBench(): Promise<void> {
  const PEOPLE = Number(process.argv[2] ?? 1_000_000);
  const { api, call, key, adAccountId, stop } = await startAdAccountBench();
  try {
    const audience = await call('POST', '/ads/audiences', key, {
      adAccountId,
      name: 'Bench list',
      subtype: 'CUSTOM',
      users: { schema: 'EMAIL_SHA256', hashed: false, data: ['first@example.com'] },
    });

    global.gc?.();
    const baseline = process.memoryUsage();
    const peak = { rss: baseline.rss, heapUsed: baseline.heapUsed };
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak.rss = Math.max(peak.rss, now.rss);
      peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    }, 20);

    // Lines made as the body is read: a person every line, emails and phones alternating, with a name and a country.
    let made = 0;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (made >= PEOPLE) return controller.close();
        const lines: string[] = [];
        for (const end = Math.min(made + 1000, PEOPLE); made < end; made += 1)
          lines.push(
            JSON.stringify(
              made % 2
                ? { email: `Person.${made}@Example.com`, firstName: 'Anna', country: 'DE' }
                : { phone: `+1 650 ${String(2_000_000 + (made % 7_000_000)).padStart(7, '0')}`, lastName: 'Schmidt' },
            ),
          );
        controller.enqueue(encoder.encode(`${lines.join('\n')}\n`));
      },
    });
    const at = performance.now();
    const response = await fetch(`${api}/ads/audiences/${audience.id}/people?adAccountId=${adAccountId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/x-ndjson' },
      body,
      duplex: 'half',
    } as RequestInit);
    const receipt = (await response.json()) as { read: number; received: number; invalid: number; batches: number; status: string };
    const seconds = (performance.now() - at) / 1000;
    clearInterval(sampler);
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    console.log(
      `${PEOPLE} people streamed as NDJSON (HTTP ${response.status}, ${receipt.status}): read ${receipt.read}, received ${receipt.received}, invalid ${receipt.invalid}, ${receipt.batches} files, in ${seconds.toFixed(1)} s (${(receipt.read / seconds).toFixed(0)} people/s)`,
    );
    console.log(
      `service process: RSS ${mib(baseline.rss)} MiB before, peak ${mib(peak.rss)} MiB (+${mib(peak.rss - baseline.rss)}); heap used ${mib(baseline.heapUsed)} MiB before, peak ${mib(peak.heapUsed)} MiB (+${mib(peak.heapUsed - baseline.heapUsed)})`,
    );
  } finally {
    await stop();
  }
}
