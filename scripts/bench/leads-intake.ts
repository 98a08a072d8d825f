/**
 * Leads intake benchmark: `leads` people send a page's lead form within about a minute (the sandbox sends each
 * signed `leadgen` webhook to the service, `concurrency` at a time); the service stores each announced lead,
 * reads it from the platform and emits `lead.received`. Prints how many were stored and emitted, the duplicates
 * (none may be), and p50/p99 from submission to the committed `lead.received`. No assertions: figures for the
 * issue notes.
 *   npx tsx scripts/bench/leads-intake.ts [leads=10000] [concurrency=32]
 *
 * Two processes: this one is the service (API and worker roles, on its own embedded PostgreSQL); the platform
 * (the sandbox) is a child process. The times are the database's clock on both ends (one machine).
 */
import { cpus, loadavg } from 'node:os';
import { startLeadsBench, socialControl } from './leads-page.js';
import { percentile } from './service.js';

await runBench();

async function runBench(): Promise<void> {
  const LEADS = Number(process.argv[2] ?? 10_000);
  const CONCURRENCY = Number(process.argv[3] ?? 32);

  const { service, sandbox, formId } = await startLeadsBench();
  const { services, stop } = service;
  try {
    const { db } = services;
    const submittedAt = new Map<string, number>();
    const clock = async () => Number((await db.raw('SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms')).rows[0].ms);
    const offset = (await clock()) - Date.now();

    const started = Date.now();
    let next = 0;
    let failedSubmissions = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let i = next++; i < LEADS; i = next++) {
          const at = Date.now() + offset;
          const answer = await socialControl(sandbox.url, 'leads', {
            formId,
            fields: { full_name: [`Person ${i}`], email: [`p${i}@example.com`] },
          });
          if (answer.deliveries?.[0]?.status !== 200) failedSubmissions += 1;
          else submittedAt.set(answer.lead.id as string, at);
        }
      }),
    );
    const submitSeconds = (Date.now() - started) / 1000;

    const emitted = async () =>
      (await db('events')
        .where({ name: 'lead.received' })
        .select(db.raw(`data->>'platformLeadId' AS id`), db.raw('extract(epoch FROM created_at) * 1000 AS at'))) as Array<{
        id: string;
        at: string;
      }>;
    const deadline = Date.now() + 10 * 60 * 1000;
    let events = await emitted();
    while (events.length < submittedAt.size && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      events = await emitted();
    }
    const doneSeconds = (Date.now() - started) / 1000;
    const stored = Number((await db('leads').count({ n: '*' }))[0]!.n);
    const ids = events.map((event) => event.id);
    const latencies = events.map((event) => Number(event.at) - submittedAt.get(event.id)!).sort((a, b) => a - b);
    console.log(
      `${LEADS} leads sent to one page's form, ${CONCURRENCY} at a time, in ${submitSeconds.toFixed(1)} s (${(LEADS / submitSeconds).toFixed(0)}/s); ${failedSubmissions} webhooks not accepted`,
    );
    console.log(
      `stored ${stored}, lead.received ${events.length} (${new Set(ids).size} distinct: ${ids.length - new Set(ids).size} duplicates), lost ${submittedAt.size - new Set(ids).size}; all emitted ${doneSeconds.toFixed(1)} s after the first submission`,
    );
    console.log(
      `submission → lead.received committed: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${latencies.at(-1)?.toFixed(0)} ms`,
    );
    console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    await stop();
    sandbox.stop();
  }
}
