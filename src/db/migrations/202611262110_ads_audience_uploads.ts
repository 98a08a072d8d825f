import type { Knex } from 'knex';

/**
 * The receipts of people uploaded to customer-list audiences (src/modules/ads/audiences/): what each upload read,
 * what the platform received and how it ended. The people themselves are never stored; an audience lives on its
 * platform, named by its platform id in the ad account.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ad_audience_uploads', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('ad_account_id').notNullable().references('ad_accounts.id').onDelete('CASCADE');
    t.text('audience_id').notNullable();
    t.text('action').notNullable().checkIn(['add', 'remove']);
    t.text('status').notNullable().checkIn(['uploading', 'complete', 'failed']);
    t.integer('read').notNullable().defaultTo(0);
    t.integer('received').notNullable().defaultTo(0);
    t.integer('invalid').notNullable().defaultTo(0);
    t.integer('matched');
    t.integer('batches').notNullable().defaultTo(0);
    t.jsonb('fields').notNullable().defaultTo('[]');
    t.jsonb('unused_fields').notNullable().defaultTo('[]');
    t.text('session_id');
    // The first lines refused and why, never their values.
    t.jsonb('samples').notNullable().defaultTo('[]');
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('finished_at', { useTz: true });
  });
  // An audience's receipts, newest first (ids are time-ordered).
  await db.raw('CREATE INDEX ad_audience_uploads_audience ON ad_audience_uploads (ad_account_id, audience_id, id DESC)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('ad_audience_uploads');
}
