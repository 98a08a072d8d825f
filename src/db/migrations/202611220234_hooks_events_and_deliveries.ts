import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // The outbox: written in the same transaction as the change that causes the event.
  await db.schema.createTable('events', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id');
    t.text('name').notNullable();
    t.jsonb('data').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('dispatched_at', { useTz: true });
  });
  await db.raw('CREATE INDEX events_undispatched ON events (id) WHERE dispatched_at IS NULL');

  await db.schema.createTable('hooks', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.specificType('events', 'text[]').notNullable();
    // null = every profile of the owner (created by a session or an unrestricted key).
    t.specificType('profile_ids', 'text[]');
    t.boolean('active').notNullable().defaultTo(true);
    t.text('disabled_reason');
    t.text('description');
    t.text('secret_ciphertext').notNullable();
    t.text('previous_secret_ciphertext');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('last_test_at', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    // Set by the first failed attempt after a success; the hook is disabled when it is old enough.
    t.timestamp('failing_since', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['owner_id', 'id']);
  });

  await db.schema.createTable('deliveries', (t) => {
    t.text('id').primary();
    t.text('hook_id').notNullable().references('hooks.id').onDelete('CASCADE');
    t.text('event_id').notNullable().references('events.id').onDelete('CASCADE');
    t.text('owner_id').notNullable();
    t.text('event').notNullable();
    // Serialised once and sent byte for byte on every attempt, so every signature covers the same bytes.
    t.text('body').notNullable();
    t.text('status').notNullable().checkIn(['pending', 'retrying', 'succeeded', 'failed']);
    t.integer('attempt_count').notNullable().defaultTo(0);
    // Attempts allowed in all; a test or redelivery to a paused hook gets exactly one.
    t.integer('max_attempts').notNullable();
    t.timestamp('next_attempt_at', { useTz: true });
    // A worker holds the delivery while it sends; a crashed worker's lease runs out and another takes over.
    t.timestamp('locked_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('delivered_at', { useTz: true });
    t.unique(['event_id', 'hook_id']);
    t.index(['hook_id', 'id']);
  });
  await db.raw(`CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status IN ('pending', 'retrying')`);

  await db.schema.createTable('delivery_attempts', (t) => {
    t.bigIncrements('id');
    t.text('delivery_id').notNullable().references('deliveries.id').onDelete('CASCADE');
    t.timestamp('at', { useTz: true }).notNullable();
    t.integer('response_status');
    t.integer('duration_ms').notNullable();
    t.text('error_class');
    t.text('response_snippet');
    t.index(['delivery_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['delivery_attempts', 'deliveries', 'hooks', 'events']) await db.schema.dropTableIfExists(table);
}
