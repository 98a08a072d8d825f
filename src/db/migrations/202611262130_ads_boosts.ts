import type { Knex } from 'knex';

/**
 * Boosts (src/modules/ads/boost/): a post promoted by four platform objects made one after the other (campaign, ad
 * set, creative, ad). The boost and each of its steps are recorded before anything is sent, so that a crash or a
 * refusal at any step is resumed or rolled back by the worker, on restart too.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ad_boosts', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('ad_account_id').notNullable().references('ad_accounts.id').onDelete('CASCADE');
    // The ad account's profile, for lists a profile-restricted key reads.
    t.text('profile_id').notNullable();
    // The request's write (its Idempotency-Key): a retry finds this boost instead of making another.
    t.text('write_key').notNullable();
    t.text('post_id');
    t.text('platform_post_id').notNullable();
    t.text('name').notNullable();
    t.text('status').notNullable().checkIn(['creating', 'active', 'paused', 'stopped', 'rolling_back', 'failed']);
    // What each step sends, its parents' ids left out (they come from the steps made before it).
    t.jsonb('plan').notNullable();
    t.text('currency').notNullable();
    t.timestamp('start_time', { useTz: true }).notNullable();
    t.timestamp('end_time', { useTz: true }).notNullable();
    t.jsonb('error');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['owner_id', 'write_key']);
    t.index(['owner_id', 'created_at', 'id']);
  });
  // What the worker claims: boosts whose steps are still being made or undone.
  await db.raw("CREATE INDEX ad_boosts_due ON ad_boosts (next_attempt_at) WHERE status IN ('creating', 'rolling_back')");
  await db.schema.createTable('ad_boost_steps', (t) => {
    t.text('boost_id').notNullable().references('ad_boosts.id').onDelete('CASCADE');
    t.text('step').notNullable().checkIn(['campaign', 'adset', 'creative', 'ad']);
    t.integer('position').notNullable();
    t.text('state').notNullable().checkIn(['pending', 'sending', 'done', 'refused', 'deleted']);
    t.text('platform_id');
    t.timestamp('sent_at', { useTz: true });
    t.timestamp('done_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    t.primary(['boost_id', 'step']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('ad_boost_steps');
  await db.schema.dropTableIfExists('ad_boosts');
}
