import { expect } from 'chai';
import { dueRowIds } from '../../../src/lib/lease-worker.js';
import { DUE_PARTS } from '../../../src/modules/commerce/worker.js';
import { DUE_LEADS } from '../../../src/modules/leads/retrieval.js';
import { describeApi } from '../../support/harness.js';
import { testCommerceSettings } from './support.js';

describeApi('the pollers’ claims — each read through its partial index', { settings: { ...testCommerceSettings() } }, (t) => {
  /** The plan PostgreSQL makes for the statement when an index can serve it at all (sequential scans priced out). */
  const plan = (sql: string) =>
    t.app.services.db.transaction(async (trx) => {
      await trx.raw('SET LOCAL enable_seqscan = off');
      const { rows } = (await trx.raw(`EXPLAIN ${sql}`)) as { rows: Array<{ 'QUERY PLAN': string }> };
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });

  it('finds the products whose review is pending through commerce_products_review_due', async () => {
    // The review poller's claim: synced products on the platform whose review is pending, by their last look.
    const explained = await plan(
      `SELECT id FROM commerce_products
       WHERE review_status = 'pending' AND sync_status = 'synced' AND deleted_at IS NULL AND platform_product_id IS NOT NULL
         AND updated_at + least(greatest(updated_at - coalesce(synced_at, created_at), make_interval(secs => 60)),
                                make_interval(secs => 21600)) <= now()
       ORDER BY updated_at LIMIT 500 FOR UPDATE SKIP LOCKED`,
    );
    expect(explained).to.match(/Index Scan (using|on) commerce_products_review_due/);
  });

  it('claims due batch parts and leads with the one dueRowIds, each through its own partial index', async () => {
    const { db } = t.app.services;
    expect(await plan(dueRowIds(db, 'commerceBatchParts', DUE_PARTS, 20).toString())).to.match(
      /Index Scan (using|on) commerce_batch_parts_due/,
    );
    expect(await plan(dueRowIds(db, 'leads', DUE_LEADS, 20).toString())).to.match(/Index Scan (using|on) leads_due/);
  });
});
