/**
 * Leads list benchmark: one page with `leads` stored leads (written straight into the table: 20 forms, a sixth of
 * them test leads, states spread over the pipeline, 180 days of times), then filtered pages read over HTTP, each
 * walking `pages` pages by cursor: by form, by state, by form and state, by a time window, and none. Prints p50/p99
 * per filter. No assertions: figures for the issue notes.
 *   npx tsx scripts/bench/leads-list.ts [leads=1000000] [reads=200]
 */
import { cpus, loadavg } from 'node:os';
import { startLeadsBench } from './leads-page.js';
import { percentile } from './service.js';

await runBench();

async function runBench(): Promise<void> {
  const LEADS = Number(process.argv[2] ?? 1_000_000);
  const READS = Number(process.argv[3] ?? 200);

  const { service, sandbox, key, profileId, page: connected } = await startLeadsBench();
  const { services, call, stop } = service;
  const page = { id: connected.accountId };
  try {
    const { db } = services;
    const { ownerId } = await db('accounts').where({ id: page.id }).first('ownerId');
    const seeding = Date.now();
    // Ids as the service makes them: `lead_` and a ULID-like 26 characters whose first 10 are the time, so id
    // order is time order.
    await db.raw(
      `INSERT INTO leads (id, owner_id, profile_id, account_id, platform, platform_lead_id, form_id, form_name, fields,
         is_test, created_at, retrieval_status, attempts, state, state_updated_at)
       SELECT 'lead_' || lpad(to_hex((extract(epoch FROM t) * 1000)::bigint), 10, '0') || lpad(to_hex(n), 16, '0'),
         ?, ?, ?, 'social_network', 'p' || n, 'form' || (n % 20), 'Form ' || (n % 20),
         jsonb_build_object('email', jsonb_build_array('p' || n || '@example.com')),
         n % 6 = 0, t, 'retrieved', 1, (ARRAY['new','contacted','qualified','won','lost','spam'])[1 + n % 6], t
       FROM generate_series(1, ?) AS n, LATERAL (SELECT now() - make_interval(secs => n * (180 * 86400.0 / ?)) AS t) AS times`,
      [ownerId, profileId, page.id, LEADS, LEADS],
    );
    await db.raw('ANALYZE leads');
    console.log(`${LEADS} leads seeded in ${((Date.now() - seeding) / 1000).toFixed(0)} s`);

    const filters: Record<string, string> = {
      none: '',
      form: 'formId=form7',
      state: 'state=qualified',
      'form and state': 'formId=form7&state=won',
      'form, not test': 'formId=form3&isTest=false',
      'a 7-day window': `from=${new Date(Date.now() - 60 * 86400000).toISOString()}&to=${new Date(Date.now() - 53 * 86400000).toISOString()}`,
    };
    for (const [label, query] of Object.entries(filters)) {
      const times: number[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < READS; i += 1) {
        const start = performance.now();
        const listed = await call('GET', `/accounts/${page.id}/leads?limit=50&${query}${cursor ? `&cursor=${cursor}` : ''}`, key);
        times.push(performance.now() - start);
        cursor = listed.nextCursor;
      }
      times.sort((a, b) => a - b);
      console.log(`${label}: ${READS} pages of 50, p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms`);
    }
    console.log(`machine: ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    await stop();
    sandbox.stop();
  }
}
