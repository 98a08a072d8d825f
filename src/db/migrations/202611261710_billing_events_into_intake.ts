import type { Knex } from 'knex';

/**
 * The payment provider's events are received as platforms' are: stored in platform_webhooks (source `billing`,
 * keyed `event:<id>`) and processed by the intake worker. Events not processed yet move there; the table and
 * the jobs that processed them go.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    `INSERT INTO platform_webhooks (platform, dedupe_key, body, headers, received_at)
     SELECT 'billing', 'event:' || id, body, '{}'::jsonb, received_at FROM billing_events
     WHERE processed_at IS NULL ORDER BY received_at
     ON CONFLICT (platform, dedupe_key) DO NOTHING`,
  );
  await db.schema.dropTable('billing_events');
  if (await db.schema.hasTable('agenda_jobs')) {
    await db('agenda_jobs').whereIn('name', ['billing.processEvent', 'billing.sweepEvents']).delete();
  }
}

export async function down(db: Knex): Promise<void> {
  await db.schema.createTable('billing_events', (t) => {
    t.text('id').primary();
    t.text('type').notNullable();
    t.text('body').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('processed_at', { useTz: true });
    t.text('error');
    t.index(['processed_at', 'received_at']);
  });
}
