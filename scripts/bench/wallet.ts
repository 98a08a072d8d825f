/**
 * Wallet benchmark (`npx tsx scripts/bench/wallet.ts [downloads] [devices]`): how many signed `.pkpass` files the
 * service makes per second and the download latency (p50/p99), then how long a transaction on a pass held by
 * `devices` simulated phones takes to reach every one of them (push, changed serials, fetch of the new signed pass).
 * The service runs in this process on its own embedded PostgreSQL; the vendor (authority, push service, phones)
 * is the sandbox in a child process, so the phones' requests come from another process as they would.
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.js';
import { benchOwnerKey, forkSandbox, percentile, startBenchService } from './service.js';

await runBench();

async function inParallel(count: number, width: number, one: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < count; i = next++) await one(i);
    }),
  );
}

async function runBench(): Promise<void> {
  const DOWNLOADS = Number(process.argv[2] ?? 1000);
  const DEVICES = Number(process.argv[3] ?? 1000);

  const sandboxChild = await forkSandbox();
  const sandboxUrl = sandboxChild.url;
  const sandbox = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${sandboxUrl}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status >= 300) throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as any;
  };
  // The service trusts the child's vendor, as it would trust the real one: by configuration.
  const trust = await sandbox('GET', '/wallet-vendor/trust');
  const port = await freePort();
  const { call, stop } = await startBenchService((dataDir) => {
    writeFileSync(join(dataDir, 'root.pem'), trust.rootCertificatePem);
    writeFileSync(join(dataDir, 'wwdr.pem'), trust.wwdrCertificatePem);
    return {
      // Every simulated phone calls from 127.0.0.1; real ones come from their own addresses.
      PUBLIC_RATE_LIMIT_PER_MINUTE: '100000000',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      WALLET_VENDOR_ROOT_CA_FILE: join(dataDir, 'root.pem'),
      WALLET_WWDR_CERT_FILE: join(dataDir, 'wwdr.pem'),
      WALLET_PUSH_URL: trust.pushUrl,
      WALLET_PUSH_CA_FILE: join(dataDir, 'root.pem'),
    };
  }, port);
  try {
    const key = await benchOwnerKey(call);
    const profileId = (await call('POST', '/profiles', key, { name: 'Bench' })).id as string;
    const program = await call('POST', '/wallet/programs', key, {
      profileId,
      name: 'Bench club',
      passStyle: 'storeCard',
      organizationName: 'Bench Coffee',
      description: 'Bench loyalty card',
      fields: [{ key: 'balance', label: 'POINTS', section: 'header', changeMessage: 'You now have %@ points.' }],
    });
    const identifiers = { passTypeIdentifier: 'pass.bench.wallet.loyalty', teamIdentifier: 'BENCH12345' };
    await call('POST', `/wallet/programs/${program.id}/vendor/connect`, key, identifiers);
    const issued = await sandbox('POST', '/_sandbox/wallet/certificates', identifiers);
    await call('POST', `/wallet/programs/${program.id}/vendor/certificate`, key, {
      format: 'pem',
      certificatePem: issued.certificatePem,
      privateKeyPem: issued.privateKeyPem,
    });

    // 1. Signed downloads: each of DOWNLOADS passes downloaded once, so every download builds and signs a package.
    const passes: Array<{ downloadUrl: string }> = [];
    await inParallel(DOWNLOADS + 50, 16, async () =>
      passes.push(await call('POST', '/wallet/passes', key, { programId: program.id, balance: 100 })),
    );
    const download = async (url: string) => {
      const started = performance.now();
      const response = await fetch(url);
      const bytes = (await response.arrayBuffer()).byteLength;
      if (response.status !== 200 || bytes === 0) throw new Error(`download answered ${response.status}`);
      return performance.now() - started;
    };
    await inParallel(50, 8, (i) => download(passes[DOWNLOADS + i]!.downloadUrl));
    const latencies: number[] = [];
    const downloadsStarted = performance.now();
    await inParallel(DOWNLOADS, 16, async (i) => latencies.push(await download(passes[i]!.downloadUrl)));
    const downloadSeconds = (performance.now() - downloadsStarted) / 1000;
    latencies.sort((a, b) => a - b);
    console.log(
      `${DOWNLOADS} downloads of distinct passes, each signed on request (16 at a time), in ${downloadSeconds.toFixed(1)} s: ` +
        `${(DOWNLOADS / downloadSeconds).toFixed(0)} signed .pkpass/s; p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );

    // 2. One pass on DEVICES phones; one transaction; until every phone fetched the new pass.
    const shared = await call('POST', '/wallet/passes', key, { programId: program.id, balance: 10 });
    const phones: Array<{ id: string }> = [];
    const addStarted = performance.now();
    await inParallel(DEVICES, 16, async () => {
      const phone = await sandbox('POST', '/_sandbox/wallet/phones');
      await sandbox('POST', `/_sandbox/wallet/phones/${phone.id}/passes`, { downloadUrl: shared.downloadUrl });
      phones.push(phone);
    });
    console.log(`${DEVICES} phones added the pass and registered in ${((performance.now() - addStarted) / 1000).toFixed(1)} s`);
    const ids = new Set(phones.map((phone) => phone.id));
    const transactionAt = performance.now();
    await call('POST', `/wallet/passes/${shared.id}/transactions`, key, { type: 'earn', points: 5 });
    let updated = 0;
    let errors = 0;
    let firstError: string | null = null;
    while (updated < DEVICES) {
      if (performance.now() - transactionAt > 120_000) throw new Error(`only ${updated} of ${DEVICES} phones updated after 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const states = (
        (await sandbox('GET', '/_sandbox/wallet/phones')) as Array<{ id: string; pushes: number; updates: number; errors: string[] }>
      ).filter((state) => ids.has(state.id));
      updated = states.filter((state) => state.updates >= 1).length;
      errors = states.reduce((sum, state) => sum + state.errors.length, 0);
      firstError = states.find((state) => state.errors.length > 0)?.errors[0] ?? firstError;
      if (process.env.BENCH_PROGRESS)
        console.log(
          `${((performance.now() - transactionAt) / 1000).toFixed(1)} s: ${updated} updated, ${states.filter((state) => state.pushes >= 1).length} pushed, ${errors} errors${firstError ? ` (${firstError})` : ''}`,
        );
    }
    console.log(
      `a transaction reached all ${DEVICES} phones (push, changed serials, the new signed pass) in ${((performance.now() - transactionAt) / 1000).toFixed(2)} s; phone errors: ${errors}${firstError ? ` (${firstError})` : ''}`,
    );
    console.log(
      `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, load average ${loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    await stop();
    sandboxChild.stop();
  }
}
