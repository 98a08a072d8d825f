/**
 * Automations benchmark: incoming messages, as signed bot webhooks over HTTP to `/webhooks/botchat`, to accounts
 * that each have 100 active automations. Prints messages/s from the first webhook sent to the last run finished,
 * p50/p99 of the time from a message's webhook being sent to its run being finished (every action done, the run
 * and `automation.triggered` committed), and duplicates: runs beyond one per message, with a tenth of the
 * messages delivered twice under new update ids (must be 0). No assertions: figures for the issue notes.
 *   npx tsx scripts/bench/automations.ts [messages=1000] [accounts=10] [automationsPerAccount=100] [action=add_tag]
 *
 * `action`: `add_tag`, or `reply_message` (a reply through the platform, once replies are wired). Each message
 * names one keyword, so one automation of its account matches it after all 100 were tried. This process is the
 * service (API and worker roles, booted as `npm start` boots them, on its own embedded PostgreSQL); the bot
 * platform is two child processes: its API (the sandbox) and its webhook sender (32 requests at a time). Also
 * prints the CPU seconds the service process and its PostgreSQL server spent over the message phase (from the
 * first webhook sent until every run has finished), per message, and the platform's two processes' CPU seconds.
 * AUTOMATION_CONCURRENCY in the environment sets the worker's concurrency (default: the service's own).
 *
 * The measured round follows a warm-up round of WARMUP messages (default 500; 0 for none), through the same path,
 * whose figures are printed too: a service that has just started runs its code unoptimised and compiles each
 * operation's request validator on its first request, and the target is the service as it runs.
 *
 * PROFILE_DIR in the environment writes a CPU profile of this process (the service) over the measured round alone
 * to PROFILE_DIR/automations-<action>-<pid>.cpuprofile: `--cpu-prof` would take in the set-up, 1,000 automations
 * created through the API, which dwarfs the round. STATEMENTS=1 prints the statements the service sent through its
 * query builder over the measured round, counted by their text (the 100 first characters).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { SECRET_HEADER } from '../../src/platforms/botchat/adapter.js';
import { benchOwnerKey, connectSandboxBot, forkSandbox, forkWebhookSender, percentile, startBenchService } from './service.js';

await runBench();

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Starts profiling this process; the function it answers stops and writes the profile to a file. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

async function runBench(): Promise<void> {
  const MESSAGES = Number(process.argv[2] ?? 1000);
  const ACCOUNTS = Number(process.argv[3] ?? 10);
  const PER_ACCOUNT = Number(process.argv[4] ?? 100);
  const ACTION = process.argv[5] ?? 'add_tag';
  const WARMUP = Number(process.env.WARMUP ?? 500);
  if (ACTION !== 'add_tag' && ACTION !== 'reply_message') throw new Error('action: add_tag or reply_message');

  const sandboxChild = await forkSandbox();
  const sender = await forkWebhookSender();
  const sandboxUrl = sandboxChild.url;
  const { api, services, call, postgresCpuSeconds, stop } = await startBenchService({
    BOTCHAT_API_URL: `${sandboxUrl}/botchat`,
    ...(process.env.AUTOMATION_CONCURRENCY ? { AUTOMATION_CONCURRENCY: process.env.AUTOMATION_CONCURRENCY } : {}),
  });
  try {
    const key = await benchOwnerKey(call);
    // A profile holds at most 100 automations: one profile per account. The accounts are set up side by side (each
    // account's automations one after another, in the order they are tried): a thousand calls in a row took
    // minutes on a loaded machine, and nothing of the set-up is measured.
    const accounts = await Promise.all(
      Array.from({ length: ACCOUNTS }, async (_, a) => {
        const profileId = (await call('POST', '/profiles', key, { name: `Bench ${a}` })).id as string;
        const accountId = await connectSandboxBot(call, sandboxUrl, key, profileId);
        // The secret the platform signs the bot's webhooks with, as the bot platform holds it.
        const row = await services.db('accounts').where({ id: accountId }).first('credentialsCiphertext');
        const secret = (JSON.parse(services.secrets.open(row.credentialsCiphertext)) as { extra: { webhookSecret: string } }).extra
          .webhookSecret;
        for (let n = 0; n < PER_ACCOUNT; n += 1) {
          const action =
            ACTION === 'add_tag'
              ? { type: 'add_tag', tag: `k${n}` }
              : { type: 'reply_message', text: 'Thanks {{name}}, about {{keyword}}!' };
          await call('POST', '/automations', key, {
            profileId,
            name: `k${n}`,
            accountIds: [accountId],
            // A mix of match types, as owners write them; every message is tried against all of them.
            trigger:
              n % 3 === 2
                ? { type: 'message_received', keywords: [`^k${n}\\b`], matchType: 'regex' }
                : { type: 'message_received', keywords: [`k${n}`, `keyword ${n}`], matchType: n % 3 === 0 ? 'contains' : 'exact' },
            actions: [action],
          });
        }
        return { id: accountId, secret };
      }),
    );
    console.log(`${ACCOUNTS} accounts with ${PER_ACCOUNT} active automations each (action ${ACTION})`);

    // The platform's updates, signed with each bot's secret: every message once, then a tenth again as new
    // updates carrying the same message. Messages are numbered across rounds; the 200 chats are the same.
    let updateId = 1;
    const update = (i: number) => {
      const n = i % PER_ACCOUNT;
      const account = accounts[i % ACCOUNTS]!;
      // A chat's messages, the people's and the bot's, share one numbering at the platform. The sandbox numbers
      // the bot's replies from 1; the people's take numbers it does not reach, as the platform would not reuse one.
      const messageId = 1_000_001 + i;
      const body = JSON.stringify({
        update_id: updateId++,
        message: {
          message_id: messageId,
          date: Math.floor(Date.now() / 1000),
          chat: { id: 9000 + (i % 200) },
          from: { id: 9000 + (i % 200), first_name: 'Bench' },
          text: n % 3 === 1 ? `k${n}` : `k${n} please, message ${i}`,
        },
      });
      return { key: `${account.id}:${messageId}`, request: { headers: { [SECRET_HEADER]: account.secret }, body } };
    };

    /** Sends messages [first, first + count) and waits until each has its run finished; what it measured. */
    const round = async (first: number, count: number) => {
      const firsts = Array.from({ length: count }, (_, i) => update(first + i));
      const redeliveries = Array.from({ length: Math.floor(count / 10) }, (_, j) => update(first + j * 10));
      const cpuBefore = {
        service: process.cpuUsage(),
        postgres: postgresCpuSeconds(),
        sandbox: sandboxChild.cpuSeconds(),
        sender: sender.cpuSeconds(),
      };
      const firstSentAt = await sender.send(
        `${api}/webhooks/botchat`,
        firsts.map((one) => one.request),
      );
      const sentAt = new Map(firsts.map((one, i) => [one.key, firstSentAt[i]!]));
      const started = Math.min(...firstSentAt);
      await sender.send(
        `${api}/webhooks/botchat`,
        redeliveries.map((one) => one.request),
      );
      const sentSeconds = (Date.now() - started) / 1000;

      const deadline = Date.now() + 300_000;
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const [{ finished, running }] = (await services
          .db('automationRuns')
          .select(
            services.db.raw(
              `count(*) FILTER (WHERE status <> 'running')::int AS finished, count(*) FILTER (WHERE status = 'running')::int AS running`,
            ),
          )) as [{ finished: number; running: number }];
        const webhooksOpen = Number(
          (await services.db('platformWebhooks').whereNull('processedAt').whereNull('failedAt').count({ n: '*' }))[0]!.n,
        );
        if ((finished >= first + count && running === 0 && webhooksOpen === 0) || Date.now() > deadline) break;
      }
      const serviceCpu = process.cpuUsage(cpuBefore.service);
      const cpu = {
        service: (serviceCpu.user + serviceCpu.system) / 1e6,
        postgres: postgresCpuSeconds() - cpuBefore.postgres,
        sandbox: sandboxChild.cpuSeconds() - cpuBefore.sandbox,
        sender: sender.cpuSeconds() - cpuBefore.sender,
      };
      const runs = (await services
        .db('automationRuns as r')
        .join('messages as m', 'm.id', 'r.sourceId')
        .select(
          'r.accountId',
          'm.platformMessageId',
          'r.finishedAt',
          'r.status',
          'm.createdAt as storedAt',
          'r.createdAt as runAt',
        )) as Array<{
        accountId: string;
        platformMessageId: string;
        finishedAt: Date | null;
        status: string;
        storedAt: Date;
        runAt: Date;
      }>;
      // This round's runs: an earlier round's messages have numbers of their own.
      const ours = runs.filter((run) => sentAt.has(`${run.accountId}:${Number(run.platformMessageId.split(':')[1])}`));
      const perMessage = new Map<string, number>();
      const latencies: number[] = [];
      // Where the time goes: webhook sent → message stored → run started → run finished.
      const stages: Record<'stored' | 'started' | 'finished', number[]> = { stored: [], started: [], finished: [] };
      let lastFinished = 0;
      for (const run of ours) {
        const messageId = Number(run.platformMessageId.split(':')[1]);
        const keyOf = `${run.accountId}:${messageId}`;
        perMessage.set(keyOf, (perMessage.get(keyOf) ?? 0) + 1);
        if (run.finishedAt) {
          latencies.push(run.finishedAt.getTime() - sentAt.get(keyOf)!);
          stages.stored.push(run.storedAt.getTime() - sentAt.get(keyOf)!);
          stages.started.push(run.runAt.getTime() - run.storedAt.getTime());
          stages.finished.push(run.finishedAt.getTime() - run.runAt.getTime());
          lastFinished = Math.max(lastFinished, run.finishedAt.getTime());
        }
      }
      latencies.sort((a, b) => a - b);
      const duplicates = [...perMessage.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
      const statuses = ours.reduce<Record<string, number>>(
        (counts, run) => ({ ...counts, [run.status]: (counts[run.status] ?? 0) + 1 }),
        {},
      );
      const seconds = (lastFinished - started) / 1000;
      const cpuLine = (cpuSeconds: number) => `${cpuSeconds.toFixed(2)} s (${((cpuSeconds * 1000) / count).toFixed(2)} ms per message)`;
      return [
        `${count} messages (+${redeliveries.length} redelivered) sent in ${sentSeconds.toFixed(2)} s; ${ours.length} runs for ${perMessage.size} messages ${JSON.stringify(statuses)}; duplicates: ${duplicates}`,
        `throughput: ${(count / seconds).toFixed(0)} messages/s (first webhook sent to last run finished: ${seconds.toFixed(2)} s)`,
        `webhook sent → run finished: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies[latencies.length - 1]} ms`,
        `p50 by stage: sent → message stored ${median(stages.stored)} ms, → run started ${median(stages.started)} ms, → run finished ${median(stages.finished)} ms`,
        `CPU over the message phase: service ${cpuLine(cpu.service)}, PostgreSQL ${cpuLine(cpu.postgres)}`,
        `  and the platform's: its API (sandbox) ${cpuLine(cpu.sandbox)}, its webhook sender ${cpuLine(cpu.sender)}`,
      ].join('\n');
    };

    if (WARMUP > 0) {
      console.log(`warm-up round, not measured (a service just started: code not yet optimised, validators not yet compiled):`);
      console.log(indent(await round(0, WARMUP)));
    }
    console.log(`measured round:`);
    const profiler = process.env.PROFILE_DIR ? await startProfile() : null;
    const statements = new Map<string, number>();
    const count = ({ sql }: { sql: string }) => {
      const text = sql.replace(/\s+/g, ' ').trim().slice(0, 100);
      statements.set(text, (statements.get(text) ?? 0) + 1);
    };
    if (process.env.STATEMENTS) services.db.on('query', count);
    const measured = await round(WARMUP, MESSAGES);
    services.db.off('query', count);
    await profiler?.(join(process.env.PROFILE_DIR!, `automations-${ACTION}-${process.pid}.cpuprofile`));
    console.log(indent(measured));
    if (process.env.STATEMENTS) {
      const sorted = [...statements].sort((a, b) => b[1] - a[1]);
      console.log(`  statements: ${sorted.reduce((sum, [, n]) => sum + n, 0)}`);
      for (const [text, n] of sorted) console.log(`  ${String(n).padStart(6)}  ${text}`);
    }
    console.log(
      `machine: ${cpus().length} cores, load average ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}; automation concurrency ${services.config.automations.concurrency}`,
    );
  } finally {
    await stop();
    sandboxChild.stop();
    sender.stop();
  }
}
