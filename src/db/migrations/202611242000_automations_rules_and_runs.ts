import type { Knex } from 'knex';

/** Automations, their runs (one per automation and source item) and who they ran for (cooldowns). */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('automations', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable().references('profiles.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.specificType('account_ids', 'text[]').notNullable();
    t.text('trigger_type').notNullable().checkIn(['message_received', 'comment_received']);
    t.specificType('keywords', 'text[]').notNullable().defaultTo('{}');
    t.text('match_type').notNullable().checkIn(['exact', 'contains', 'regex']);
    t.boolean('case_sensitive').notNullable().defaultTo(false);
    t.specificType('post_ids', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('actions').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.integer('priority').notNullable().defaultTo(0);
    t.boolean('stop_on_match').notNullable().defaultTo(false);
    t.integer('cooldown_seconds').notNullable().defaultTo(0);
    t.boolean('once_per_person').notNullable().defaultTo(false);
    t.integer('triggered_count').notNullable().defaultTo(0);
    t.integer('succeeded_count').notNullable().defaultTo(0);
    t.integer('failed_count').notNullable().defaultTo(0);
    t.timestamp('last_triggered_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['owner_id', 'id']);
    t.index(['profile_id']);
  });
  // The engine reads an account's active automations (then caches them): `account_ids @> ARRAY[id]`.
  await db.raw('CREATE INDEX automations_account_ids ON automations USING gin (account_ids) WHERE active');

  await db.schema.createTable('automation_runs', (t) => {
    t.text('id').primary();
    // No foreign key: deleting an automation lets the runs already started finish.
    t.text('automation_id').notNullable();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('platform').notNullable();
    t.text('trigger_type').notNullable();
    t.text('source_kind').notNullable().checkIn(['message', 'comment']);
    // Our message id, or the platform's comment id.
    t.text('source_id').notNullable();
    t.text('conversation_id');
    t.text('platform_post_id');
    t.text('person_id').notNullable();
    t.text('person_name');
    t.text('text').notNullable();
    t.text('matched_keyword');
    // The actions as they were when the run began, their texts rendered; `outcomes[i]` once action i is done.
    t.jsonb('actions').notNullable();
    t.jsonb('outcomes').notNullable().defaultTo('[]');
    t.text('status').notNullable().checkIn(['running', 'succeeded', 'failed']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('finished_at', { useTz: true });
    // Exactly once: a webhook delivered twice, or a message seen again in another batch, makes no second run.
    t.unique(['automation_id', 'source_kind', 'source_id']);
    t.index(['automation_id', 'id']);
  });
  await db.raw("CREATE INDEX automation_runs_open ON automation_runs (locked_until, created_at) WHERE status = 'running'");

  // Who an automation ran for, per account: the cooldown and "once per person" gate, taken in one statement.
  await db.schema.createTable('automation_people', (t) => {
    t.text('automation_id').notNullable().references('automations.id').onDelete('CASCADE');
    t.text('account_id').notNullable();
    t.text('person_id').notNullable();
    // When the latest message or comment it ran for was written (the cooldown counts from there).
    t.timestamp('last_source_at', { useTz: true }).notNullable();
    t.primary(['automation_id', 'account_id', 'person_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['automation_people', 'automation_runs', 'automations']) await db.schema.dropTableIfExists(table);
}
