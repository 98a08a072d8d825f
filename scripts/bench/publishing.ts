/**
 * Publishing benchmark: N posts to sandbox bots, all due in the same minute (by default at the same second).
 * Prints how long until every post was published (recorded by us) after its due time, the lateness of each
 * message's arrival at the platform against its scheduledAt (p50/p99/max), the rate, and duplicates (a post
 * whose message arrived more than once: must be 0); beside the rate, its anchor: the CPU each party (the service,
 * its PostgreSQL, the platform) spent per post in the burst, and the rate the machine's cores allow at that cost.
 * No assertions: figures for the issue notes.
 *   npx tsx scripts/bench/publishing.ts [posts=10000] [bots=100] [spreadSeconds=0] [firstRound=2000]
 *
 * The burst is measured on a service that has published before, as one that has been running has: a first round
 * of `firstRound` posts due at once 4 s before the burst (0: none) is published first, and its own figure printed
 * beside the burst's. Until a process has run a path many times, V8 runs it unoptimised: the first thousands of
 * posts a fresh process (and a fresh sandbox) publishes cost two to three times the CPU of the later ones.
 *
 * Two processes: this one is the service (API and worker roles, booted as `npm start` boots them, on its own
 * embedded PostgreSQL); the bot platform (the sandbox) is a child process, so that the platform's own work
 * is not counted against the service. Posts are created before they are due through `POST /posts/batch`, 500 a
 * request: the creation takes seconds rather than minutes, and nothing of it overlaps the burst.
 */
import { cpus, loadavg } from 'node:os';
import { benchOwnerKey, connectSandboxBot, forkSandbox, percentile, startBenchService } from './service.js';

/** Posts per `POST /posts/batch` (the contract's most), and batches sent at once. */
const BATCH = 500;
const PARALLEL = 2;

// Agenda leaves a timer of half a job's lock lifetime (5 minutes) behind each job it ran: the bench exits itself.
await runBench().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

async function runBench(): Promise<void> {
  const POSTS = Number(process.argv[2] ?? 10_000);
  const BOTS = Number(process.argv[3] ?? 100);
  const SPREAD = Number(process.argv[4] ?? 0);
  const FIRST_ROUND = Number(process.argv[5] ?? 2000);

  const sandboxChild = await forkSandbox();
  const sandboxUrl = sandboxChild.url;
  const { services, call, postgresCpuSeconds, stop } = await startBenchService({ BOTCHAT_API_URL: `${sandboxUrl}/botchat` });
  try {
    const key = await benchOwnerKey(call);
    const profileId = (await call('POST', '/profiles', key, { name: 'Bench' })).id as string;
    const accounts: string[] = [];
    for (let i = 0; i < BOTS; i += 1) accounts.push(await connectSandboxBot(call, sandboxUrl, key, profileId));

    const post = (text: string, i: number, at: number) => ({
      text,
      accountIds: [accounts[i % BOTS]],
      platformOptions: { botchat: { chatIds: [String(1000 + (i % 50))] } },
      scheduledAt: new Date(at).toISOString(),
    });
    const inBatches = async (count: number, one: (i: number) => ReturnType<typeof post>) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: PARALLEL }, async () => {
          for (let b = next++; b * BATCH < count; b = next++) {
            const posts = Array.from({ length: Math.min(BATCH, count - b * BATCH) }, (_, k) => one(b * BATCH + k));
            await call('POST', '/posts/batch', key, { posts });
          }
        }),
      );
    };
    // Creation speed decides how far ahead the due second must be: measured on warm-up posts due in an hour.
    const warmStart = performance.now();
    await inBatches(BATCH * PARALLEL, (i) => post(`warm-up ${i}`, i, Date.now() + 3_600_000));
    const perPostMs = (performance.now() - warmStart) / (BATCH * PARALLEL);
    const due = Math.ceil((Date.now() + perPostMs * (POSTS + FIRST_ROUND) * 1.3 + 5000 + (FIRST_ROUND > 0 ? 4000 : 0)) / 1000) * 1000;
    const firstRoundDue = due - 4000;
    await inBatches(FIRST_ROUND, (i) => post(`first round ${i}`, i, firstRoundDue));
    const scheduled = Array.from({ length: POSTS }, (_, i) => due + (SPREAD > 0 ? (i % SPREAD) * 1000 : 0));
    const createdAt = performance.now();
    await inBatches(POSTS, (i) => post(`bench ${i}`, i, scheduled[i]!));
    const creationSeconds = (performance.now() - createdAt) / 1000;
    const lead = (due - Date.now()) / 1000;
    console.log(
      `${POSTS} posts to ${BOTS} bots created in ${creationSeconds.toFixed(1)} s (${(POSTS / creationSeconds).toFixed(0)}/s, ${BATCH} a request, ${PARALLEL} at once); due ${SPREAD > 0 ? `over ${SPREAD} s from` : 'at'} ${new Date(due).toISOString()}, ${lead.toFixed(1)} s from now`,
    );
    if (lead < 1) console.log('warning: creation ran past the due time; lateness below includes it');

    if (FIRST_ROUND > 0) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, firstRoundDue - Date.now())));
      let open = FIRST_ROUND;
      while (open > 0 && Date.now() < due) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        open = Number(
          (
            await services
              .db('postTargets')
              .whereIn('status', ['scheduled', 'processing'])
              .where('dueAt', '<=', new Date(firstRoundDue))
              .count({ n: '*' })
          )[0]!.n,
        );
      }
      // Nothing else is published before the burst.
      const last = (await services.db('postTargets').max({ at: 'publishedAt' }).first()) as { at: Date | null };
      console.log(
        open > 0
          ? `warning: the first round (${FIRST_ROUND} posts) was not settled by the burst's due time: ${open} open`
          : `first round, on a fresh process and platform: ${FIRST_ROUND} posts due at once, all published ${((last.at!.getTime() - firstRoundDue) / 1000).toFixed(2)} s after`,
      );
    }

    // The CPU each party spends from the due time until everything settled: what a post costs in the burst.
    const cpuOf = () => {
      const { user, system } = process.cpuUsage();
      return { service: (user + system) / 1e6, postgres: postgresCpuSeconds(), platform: sandboxChild.cpuSeconds() };
    };
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
    const cpuBefore = cpuOf();
    let cpuAfter = cpuBefore;
    let messages: Array<{ text: string; at: number }> = [];
    const deadline = Date.now() + SPREAD * 1000 + 300_000;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const open = Number(
        (
          await services
            .db('postTargets')
            .whereIn('status', ['scheduled', 'processing'])
            .where('dueAt', '<=', new Date(due + SPREAD * 1000))
            .count({ n: '*' })
        )[0]!.n,
      );
      if (open === 0 || Date.now() > deadline) {
        cpuAfter = cpuOf();
        // The burst's: the first round was published before it.
        const published = Number((await services.db('postTargets').where({ status: 'published' }).count({ n: '*' }))[0]!.n) - FIRST_ROUND;
        const sent = (await (await fetch(`${sandboxUrl}/_sandbox/botchat/sent`)).json()) as {
          messages: Array<{ text: string; at: number }>;
        };
        messages = sent.messages.filter((message) => message.text.startsWith('bench '));
        console.log(`settled: ${published} published, ${POSTS - published - open} failed, ${open} still open`);
        break;
      }
    }
    const lastAck = (await services.db('postTargets').max({ at: 'publishedAt' }).first()) as { at: Date };
    const byText = new Map<string, number[]>();
    for (const message of messages) byText.set(message.text, [...(byText.get(message.text) ?? []), message.at]);
    const lateness: number[] = [];
    let duplicates = 0;
    for (let i = 0; i < POSTS; i += 1) {
      const arrivals = byText.get(`bench ${i}`) ?? [];
      if (arrivals.length > 1) duplicates += arrivals.length - 1;
      if (arrivals.length > 0) lateness.push(Math.min(...arrivals) - scheduled[i]!);
    }
    lateness.sort((a, b) => a - b);
    const lastArrival = Math.max(...messages.map((m) => m.at));
    const rate = messages.length / Math.max(0.001, (lastArrival - due) / 1000);
    const parties = ['service', 'postgres', 'platform'] as const;
    const msPerPost = (party: (typeof parties)[number]) => ((cpuAfter[party] - cpuBefore[party]) * 1000) / Math.max(1, messages.length);
    // The anchor: the rate the machine's cores allow at the CPU every party spent per post in this run.
    const cpuBound = (cpus().length * 1000) / parties.reduce((sum, party) => sum + msPerPost(party), 0);
    console.log(
      [
        `platform received ${messages.length} messages for ${byText.size} distinct posts; duplicates: ${duplicates}`,
        `all published (recorded) ${((lastAck.at.getTime() - due) / 1000).toFixed(2)} s after the due time; last arrival at the platform ${((lastArrival - due) / 1000).toFixed(2)} s after`,
        `lateness against scheduledAt: p50 ${percentile(lateness, 50)} ms, p99 ${percentile(lateness, 99)} ms, max ${lateness[lateness.length - 1]} ms, min ${lateness[0]} ms`,
        `rate: ${rate.toFixed(0)} posts/s after the due time`,
        `CPU ms per post in the burst: ${parties.map((party) => `${party} ${msPerPost(party).toFixed(2)}`).join(', ')}; CPU bound of this run ${cpuBound.toFixed(0)} posts/s (${(rate / cpuBound).toFixed(2)} of it)`,
        `machine: ${cpus().length} cores, load average ${loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')}; publish concurrency ${services.config.publishing.concurrency}`,
      ].join('\n'),
    );
  } finally {
    await stop();
    sandboxChild.stop();
  }
}
