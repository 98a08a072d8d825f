import type { Knex } from 'knex';

/**
 * Leads: one row per (connection, platform lead id), written as soon as a platform's webhook announces the lead
 * (`retrieval_status = 'pending'`), so a lead is never lost while its answers are read, refused or retried; a
 * webhook delivered twice adds nothing. The connection is a page (`acc_…`) or, for TikTok, whose forms belong to
 * the advertiser, an ad account (`adacc_…`), hence no foreign key on `account_id`. `id` is a ULID of the lead's
 * own time, so the keyset list by id is newest first. The pipeline state lives on the lead (one read builds a
 * board), every change of it in `lead_state_changes`.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('leads', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable();
    t.text('account_id').notNullable();
    t.text('platform').notNullable();
    t.text('platform_lead_id').notNullable();
    t.text('form_id').notNullable();
    t.text('form_name');
    t.text('ad_id');
    t.text('adset_id');
    t.text('campaign_id');
    t.text('source_platform');
    t.jsonb('fields').notNullable().defaultTo('{}');
    t.boolean('is_organic').notNullable().defaultTo(false);
    t.boolean('is_test').notNullable().defaultTo(false);
    // A platform's own test lead (deleted there too when deleted here); a simulated one never reaches the platform.
    t.boolean('platform_test').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.text('retrieval_status').notNullable().defaultTo('pending');
    t.text('retrieval_reason');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('locked_until', { useTz: true });
    t.text('state').notNullable().defaultTo('new');
    t.text('note');
    t.text('assignee');
    t.integer('state_version').notNullable().defaultTo(0);
    t.text('state_updated_by');
    t.timestamp('state_updated_at', { useTz: true }).notNullable();
    t.unique(['account_id', 'platform_lead_id']);
  });
  await db.raw('CREATE INDEX leads_listing ON leads (account_id, id)');
  await db.raw('CREATE INDEX leads_form_listing ON leads (account_id, form_id, id)');
  await db.raw('CREATE INDEX leads_state_listing ON leads (account_id, state_updated_at DESC, id DESC)');
  await db.raw(`CREATE INDEX leads_due ON leads (next_attempt_at) WHERE retrieval_status <> 'retrieved'`);
  await db.raw('CREATE INDEX leads_retention ON leads (received_at)');

  await db.schema.createTable('lead_state_changes', (t) => {
    t.bigIncrements('id');
    t.text('lead_id').notNullable().references('leads.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.text('state').notNullable();
    t.text('note');
    t.text('assignee');
    t.text('changed_by').notNullable();
    t.timestamp('changed_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['lead_id', 'version']);
  });

  // The 90 days of leads read from the platform for a connection: when, and since when.
  await db.schema.createTable('lead_backfills', (t) => {
    t.text('account_id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.timestamp('since', { useTz: true }).notNullable();
    t.timestamp('requested_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('due_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('done_at', { useTz: true });
    t.timestamp('locked_until', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('lead_backfills');
  await db.schema.dropTableIfExists('lead_state_changes');
  await db.schema.dropTableIfExists('leads');
}
