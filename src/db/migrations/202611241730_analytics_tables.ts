import type { Knex } from 'knex';

/**
 * Analytics: figures read from the platforms, cached per (account, metric, window) until `expires_at`; the
 * metrics a platform refused as invalid, per API version, so they are not asked again; and the daily follower
 * snapshots of platforms that give only a current count (one per account and day, the first of the day kept);
 * and until when a platform that throttled an account asked not to be called for it again.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('analytics_cache', (t) => {
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.jsonb('figures').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['account_id', 'key']);
    t.index(['expires_at']);
  });
  await db.schema.createTable('analytics_dead_metrics', (t) => {
    t.text('platform').notNullable();
    t.text('api_version').notNullable();
    t.text('metric').notNullable();
    t.text('refusal').notNullable();
    t.timestamp('found_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['platform', 'api_version', 'metric']);
  });
  await db.schema.createTable('analytics_follower_snapshots', (t) => {
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('followers').notNullable();
    t.timestamp('taken_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['account_id', 'day']);
  });
  await db.schema.createTable('analytics_throttles', (t) => {
    t.text('account_id').primary().references('accounts.id').onDelete('CASCADE');
    t.timestamp('until', { useTz: true }).notNullable();
    t.text('message').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('analytics_throttles');
  await db.schema.dropTableIfExists('analytics_follower_snapshots');
  await db.schema.dropTableIfExists('analytics_dead_metrics');
  await db.schema.dropTableIfExists('analytics_cache');
}
