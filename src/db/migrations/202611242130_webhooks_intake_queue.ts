import type { Knex } from 'knex';

/**
 * Stored platform webhooks become the intake worker's queue: attempts, the next attempt's time and the error of
 * the last, a lease, and when one was given up. `intake_key` is what orders processing: the account the
 * signature named, or the platform when it signs for all its accounts at once; the webhooks of one key are
 * processed one after another in the order received (by id).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('platform_webhooks', (t) => {
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('failed_at', { useTz: true });
  });
  await db.raw(
    `ALTER TABLE platform_webhooks ADD COLUMN intake_key text GENERATED ALWAYS AS (coalesce(source_account_id, 'platform:' || platform)) STORED`,
  );
  // Only what is still to be processed: the claim reads it by key, in order.
  await db.raw(
    'CREATE INDEX platform_webhooks_intake_idx ON platform_webhooks (intake_key, id) WHERE processed_at IS NULL AND failed_at IS NULL',
  );
  // The jobs that processed them before: the worker finds what they had not done by itself.
  if (await db.schema.hasTable('agenda_jobs')) {
    await db('agenda_jobs').whereIn('name', ['platformWebhooks.process', 'platformWebhooks.sweep']).delete();
  }
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS platform_webhooks_intake_idx');
  await db.schema.alterTable('platform_webhooks', (t) => {
    t.dropColumns('intake_key', 'attempts', 'next_attempt_at', 'locked_until', 'failed_at');
  });
}
