/**
 * Analytics benchmark: the summary of 100 social_network pages, each read 10 times over HTTP. The first read of
 * each page is cold (every figure read from the platform), the other nine are warm (from the cache). Prints
 * p50/p99 of cold and warm reads and the platform calls each made (warm must make none). No assertions: figures
 * for the issue notes.
 *   npx tsx scripts/bench/analytics.ts [pages=100] [reads=10]
 *
 * Two processes: this one is the service (booted as `npm start` boots it, on its own embedded PostgreSQL); the
 * platform (the sandbox) is a child process, so that its work is not counted against the service.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

type Message = { type: 'ready'; url: string };

if (process.env.BENCH_ROLE === 'sandbox') await runSandbox();
else await runBench();

async function runSandbox(): Promise<void> {
  const { startSandbox } = await import('../../src/sandbox/server.js');
  const sandbox = await startSandbox({ port: 0 });
  process.send!({ type: 'ready', url: sandbox.url } satisfies Message);
  process.on('disconnect', () => void sandbox.close().then(() => process.exit(0)));
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function runBench(): Promise<void> {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir, cpus, loadavg } = await import('node:os');
  const { join } = await import('node:path');
  const { randomBytes } = await import('node:crypto');
  const { createApp } = await import('../../src/app.js');
  const { boot } = await import('../../src/boot.js');
  const { startEmbeddedPostgres } = await import('../../src/db/embedded.js');
  const { loadConfig } = await import('../../src/lib/config.js');
  const { SANDBOX_APP } = await import('../../src/sandbox/social-network/demo.js');

  const PAGES = Number(process.argv[2] ?? 100);
  const READS = Number(process.argv[3] ?? 10);

  const dir = mkdtempSync(join(tmpdir(), 'socialgate-bench-'));
  const pgDir = mkdtempSync(join(tmpdir(), 'socialgate-bench-pg-'));
  process.on('exit', () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(pgDir, { recursive: true, force: true });
  });
  const sandboxChild: ChildProcess = fork(fileURLToPath(import.meta.url), [], {
    env: { ...process.env, BENCH_ROLE: 'sandbox' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [{ url: sandboxUrl }] = (await once(sandboxChild, 'message')) as [Message];
  const pg = await startEmbeddedPostgres({
    dir: pgDir,
    port: 20000 + Math.floor(Math.random() * 20000),
    database: 'bench',
    persistent: false,
  });
  const base = loadConfig({
    SANDBOX_PORT: '0',
    RATE_LIMIT_PER_MINUTE: '100000000',
    SOCIAL_NETWORK_APP_ID: SANDBOX_APP.id,
    SOCIAL_NETWORK_APP_SECRET: SANDBOX_APP.secret,
    SOCIAL_NETWORK_GRAPH_URL: `${sandboxUrl}/social_network/graph`,
    SOCIAL_NETWORK_DIALOG_URL: `${sandboxUrl}/social_network/www`,
  });
  const booted = await boot({
    ...base,
    databaseUrl: pg.url,
    logLevel: 'warn',
    dataDir: dir,
    encryptionKey: randomBytes(32).toString('base64'),
  });
  const server = createApp(booted.services).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const api = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const call = async (method: string, path: string, token: string | null, body?: unknown) => {
    const response = await fetch(`${api}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };
  const control = async (path: string, body?: unknown) => {
    const response = await fetch(`${sandboxUrl}/_sandbox/social_network/${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as any;
  };
  try {
    const signUp = await call('POST', '/auth/signup', null, { email: 'bench@example.com', password: 'bench password 123' });
    const key = (await call('POST', '/api-keys', signUp.session.token, { name: 'bench' })).key as string;
    const profileId = (await call('POST', '/profiles', key, { name: 'Bench' })).id as string;

    // One person with every page, through the login dialog as a browser does it, then the pages chosen.
    const person = await control('users', { name: 'Bench', pages: PAGES, adAccounts: 0 });
    await control('login', { userId: person.userId });
    const started = await call(
      'GET',
      `/connect/social_network?profileId=${profileId}&redirectUrl=${encodeURIComponent('http://localhost:9/done')}`,
      key,
    );
    const dialog = await (await fetch(started.authorizationUrl)).text();
    const form = new URLSearchParams(
      [...dialog.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, n, v]) => [n!, v!.replace(/&quot;/g, '"')]),
    );
    form.set('decision', 'approve');
    const action = /<form method="post" action="([^"]+)"/.exec(dialog)![1]!;
    const back = (await fetch(new URL(action, started.authorizationUrl), { method: 'POST', body: form, redirect: 'manual' })).headers.get(
      'location',
    )!;
    const callback = await fetch(`${api}${new URL(back).pathname}${new URL(back).search}`, { redirect: 'manual' });
    const pendingConnectionId = new URL(callback.headers.get('location')!).searchParams.get('pendingConnectionId')!;
    const connected = await call('POST', `/profiles/${profileId}/connect/social_network`, key, {
      pendingConnectionId,
      platformPageIds: person.pageIds,
    });
    const accounts = (connected.data as Array<{ id: string; platformAccountId: string }>).map((a) => ({
      id: a.id,
      pageId: a.platformAccountId,
    }));

    const calls = async () => {
      let total = 0;
      for (const { pageId } of accounts) total += (await control(`insights-calls?pageId=${pageId}`)).calls as number;
      return total;
    };
    const summary = async (accountId: string) => {
      const start = performance.now();
      await call('GET', `/analytics/${accountId}/summary?from=2026-10-04&to=2026-10-31`, key);
      return performance.now() - start;
    };
    const inParallel = async <T>(items: T[], one: (item: T) => Promise<number>): Promise<number[]> => {
      const times: number[] = [];
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          for (let i = next++; i < items.length; i = next++) times.push(await one(items[i]!));
        }),
      );
      return times.sort((a, b) => a - b);
    };
    const report = (label: string, times: number[], platformCalls: number) =>
      console.log(
        `${label}: ${times.length} summaries, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, ${platformCalls} platform calls`,
      );

    const before = await calls();
    const cold = await inParallel(accounts, (account) => summary(account.id));
    const afterCold = await calls();
    const warm = await inParallel(
      accounts.flatMap((account) => Array.from({ length: READS - 1 }, () => account)),
      (account) => summary(account.id),
    );
    const afterWarm = await calls();
    // The same pipeline (key, rate limit, contract checks, one account read) with no figures, to compare.
    const baseline = await inParallel(
      accounts.flatMap((account) => Array.from({ length: READS - 1 }, () => account)),
      async (account) => {
        const start = performance.now();
        await call('GET', `/accounts/${account.id}`, key);
        return performance.now() - start;
      },
    );
    console.log(`${accounts.length} social_network pages, summary of 28 days against the previous 28, 8 requests at a time`);
    report('cold (first read of each page)', cold, afterCold - before);
    report(`warm (the other ${READS - 1} reads of each)`, warm, afterWarm - afterCold);
    report('baseline GET /accounts/{id}, same count', baseline, 0);
    console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    server.closeAllConnections();
    server.close();
    await booted.shutdown();
    sandboxChild.disconnect();
    await pg.stop();
  }
}
