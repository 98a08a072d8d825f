/**
 * Commerce benchmark: N products (100,000 by default) through `POST /commerce/products/batch`, 1000 a request, 4
 * requests at a time, into one catalog of the sandbox's social network; then the product list at that size. Prints
 * the time until every item settled, the platform calls made (by kind), the service's peak memory, and p50/p99 of
 * a filtered page of the list (`availability`, 100 a page, first pages and pages further on). No assertions:
 * figures for the issue notes.
 *   npx tsx scripts/bench/commerce-batch.ts [products=100000]
 *
 * Two processes: this one is the service (booted as `npm start` boots it, workers included, on its own embedded
 * PostgreSQL); the platform (the sandbox) is a child process, so that its work is not counted against the service.
 */
import { cpus, loadavg } from 'node:os';
import { SANDBOX_APP } from '../../src/sandbox/social-network/demo.js';
import { benchOwnerKey, connectPagesByDialog, forkSandbox, percentile, socialNetworkControl, startBenchService } from './service.js';

// The service's pools, timers and the embedded PostgreSQL's handles would keep the process alive: it exits itself.
await runBench().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

async function runBench(): Promise<void> {
  const PRODUCTS = Number(process.argv[2] ?? 100_000);
  const PER_REQUEST = 1000;
  const AVAILABILITIES = ['in stock', 'out of stock', 'preorder', 'available for order'];

  const sandboxChild = await forkSandbox();
  const sandboxUrl = sandboxChild.url;
  const { api, call, services, stop } = await startBenchService({
    SOCIAL_NETWORK_APP_ID: SANDBOX_APP.id,
    SOCIAL_NETWORK_APP_SECRET: SANDBOX_APP.secret,
    SOCIAL_NETWORK_GRAPH_URL: `${sandboxUrl}/social_network/graph`,
    SOCIAL_NETWORK_DIALOG_URL: `${sandboxUrl}/social_network/www`,
    COMMERCE_POLL_SCHEDULE_MS: '250,500,1000',
    COMMERCE_ANSWER_WAIT_MS: '0',
  });
  const control = socialNetworkControl(sandboxUrl);
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100);
  try {
    const key = await benchOwnerKey(call);
    const profileId = (await call('POST', '/profiles', key, { name: 'Bench' })).id as string;
    const person = await control('users', { name: 'Bench', pages: 1, adAccounts: 0 });
    await control('login', { userId: person.userId });
    const connected = await connectPagesByDialog(call, api, key, profileId, person.pageIds);
    const catalog = await call('POST', '/commerce/catalogs', key, { accountId: connected.data[0].id, name: 'Bench catalog' });

    const request = (start: number) =>
      Array.from({ length: Math.min(PER_REQUEST, PRODUCTS - start) }, (_, i) => {
        const n = start + i;
        return {
          method: 'CREATE',
          retailerId: `SKU-${String(n).padStart(7, '0')}`,
          data: {
            title: `Product ${n}`,
            description: 'A product of the benchmark.',
            availability: AVAILABILITIES[n % AVAILABILITIES.length],
            condition: 'new',
            price: 100 + (n % 5000),
            currency: 'EUR',
            link: `https://shop.example/p/${n}`,
            imageLink: `https://cdn.shop.example/p/${n}.jpg`,
            brand: 'Bench',
          },
        };
      });
    const callsBefore = (await control('commerce/calls')).calls as Record<string, number>;
    const started = performance.now();
    const starts = Array.from({ length: Math.ceil(PRODUCTS / PER_REQUEST) }, (_, i) => i * PER_REQUEST);
    const answers: number[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
          const sentAt = performance.now();
          await call('POST', '/commerce/products/batch', key, { catalogId: catalog.id, requests: request(start) });
          answers.push(performance.now() - sentAt);
        }
      }),
    );
    const accepted = performance.now() - started;
    for (;;) {
      const open = await services.db('commerceBatches').where({ status: 'processing' }).count({ n: '*' });
      if (Number(open[0]!.n) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const settled = performance.now() - started;
    const callsAfter = (await control('commerce/calls')).calls as Record<string, number>;
    const counts = await services.db('commerceBatchItems').select('status').count({ n: '*' }).groupBy('status');
    clearInterval(sampler);

    // The list at this size: first pages of a filter, and pages further on by cursor.
    const times: number[] = [];
    for (let round = 0; round < 50; round += 1) {
      for (const availability of AVAILABILITIES) {
        let cursor: string | null = null;
        for (let page = 0; page < 3; page += 1) {
          const at = performance.now();
          const listed: { nextCursor: string | null } = await call(
            'GET',
            `/commerce/products?catalogId=${catalog.id}&availability=${encodeURIComponent(availability)}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
            key,
          );
          times.push(performance.now() - at);
          cursor = listed.nextCursor;
        }
      }
    }
    times.sort((a, b) => a - b);
    answers.sort((a, b) => a - b);
    const platformCalls = Object.fromEntries(Object.entries(callsAfter).map(([kind, n]) => [kind, n - (callsBefore[kind] ?? 0)]));

    console.log(`${PRODUCTS} products, ${PER_REQUEST} a request, 4 requests at a time, one catalog`);
    console.log(`batch answers (202): p50 ${percentile(answers, 50).toFixed(0)} ms, p99 ${percentile(answers, 99).toFixed(0)} ms`);
    console.log(`all accepted after ${(accepted / 1000).toFixed(1)} s; all settled after ${(settled / 1000).toFixed(1)} s`);
    console.log(`items: ${counts.map((c: any) => `${c.status} ${c.n}`).join(', ')}`);
    console.log(`platform calls: ${JSON.stringify(platformCalls)}`);
    console.log(`service peak RSS during the batches: ${(peakRss / 1024 / 1024).toFixed(0)} MiB`);
    console.log(
      `filtered list page (availability, 100 a page, pages 1-3), ${times.length} reads: p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`,
    );
    console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    clearInterval(sampler);
    await stop();
    sandboxChild.stop();
  }
}
