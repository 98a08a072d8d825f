import type { Knex } from 'knex';

/**
 * Creatives waiting for their video (src/modules/ads/creatives/): the video is in the ad account's library, the
 * platform processes it, and the worker creates the creative once it is ready.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ad_creative_tasks', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('ad_account_id').notNullable().references('ad_accounts.id').onDelete('CASCADE');
    // The platform write the request named (its Idempotency-Key): a retry finds this task instead of making another.
    t.text('write_key').notNullable();
    t.text('status').notNullable().checkIn(['processing', 'succeeded', 'failed']);
    t.text('video_id').notNullable();
    // The creative to create once the video is ready: its name, the content as the platform takes it, and as asked.
    t.jsonb('request').notNullable();
    t.jsonb('creative');
    t.jsonb('error');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('deadline_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('completed_at', { useTz: true });
    t.unique(['owner_id', 'write_key']);
  });
  // What the worker claims: tasks still processing, by when they are next looked at.
  await db.raw("CREATE INDEX ad_creative_tasks_due ON ad_creative_tasks (next_attempt_at) WHERE status = 'processing'");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('ad_creative_tasks');
}
