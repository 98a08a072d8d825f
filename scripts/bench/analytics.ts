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
import { cpus, loadavg } from 'node:os';
import { SANDBOX_APP } from '../../src/sandbox/social-network/demo.js';
import { benchOwnerKey, connectPagesByDialog, forkSandbox, percentile, socialNetworkControl, startBenchService } from './service.js';

await runBench();

async function runBench(): Promise<void> {
  const PAGES = Number(process.argv[2] ?? 100);
  const READS = Number(process.argv[3] ?? 10);

  const sandboxChild = await forkSandbox();
  const sandboxUrl = sandboxChild.url;
  const { api, call, stop } = await startBenchService({
    SOCIAL_NETWORK_APP_ID: SANDBOX_APP.id,
    SOCIAL_NETWORK_APP_SECRET: SANDBOX_APP.secret,
    SOCIAL_NETWORK_GRAPH_URL: `${sandboxUrl}/social_network/graph`,
    SOCIAL_NETWORK_DIALOG_URL: `${sandboxUrl}/social_network/www`,
  });
  const control = socialNetworkControl(sandboxUrl);
  try {
    const key = await benchOwnerKey(call);
    const profileId = (await call('POST', '/profiles', key, { name: 'Bench' })).id as string;

    // One person with every page, through the login dialog as a browser does it, then the pages chosen.
    const person = await control('users', { name: 'Bench', pages: PAGES, adAccounts: 0 });
    await control('login', { userId: person.userId });
    const connected = await connectPagesByDialog(call, api, key, profileId, person.pageIds);
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
    await stop();
    sandboxChild.stop();
  }
}
