import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('posts', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable().references('profiles.id').onDelete('CASCADE');
    t.text('status').notNullable().checkIn(['scheduled', 'processing', 'published', 'partial', 'failed', 'cancelled', 'deleted']);
    t.text('text');
    // Media by id only (the media table is another module's); checked when the post is created.
    t.specificType('media_ids', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('platform_options').notNullable().defaultTo('{}');
    t.timestamp('scheduled_at', { useTz: true }).notNullable();
    // Published at once: the events say `scheduledAt: null`.
    t.boolean('publish_now').notNullable().defaultTo(false);
    t.timestamp('published_at', { useTz: true });
    t.text('timezone');
    // No foreign key: a deleted slot leaves its posts where they were placed (and listed in the queue).
    t.text('slot_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['owner_id', 'scheduled_at', 'id']);
  });
  // One post per slot occurrence: two requests racing for the same free slot cannot both take it.
  await db.raw(
    `CREATE UNIQUE INDEX posts_slot_occurrence ON posts (slot_id, scheduled_at) WHERE slot_id IS NOT NULL AND status = 'scheduled'`,
  );
  await db.raw(`CREATE INDEX posts_queue ON posts (profile_id, scheduled_at, id) WHERE slot_id IS NOT NULL AND status = 'scheduled'`);

  await db.schema.createTable('post_targets', (t) => {
    t.text('post_id').notNullable().references('posts.id').onDelete('CASCADE');
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.integer('position').notNullable();
    t.text('platform').notNullable();
    t.text('status').notNullable().checkIn(['scheduled', 'processing', 'published', 'failed', 'cancelled', 'deleted']);
    t.text('platform_post_id');
    t.text('url');
    t.timestamp('published_at', { useTz: true });
    t.integer('attempts').notNullable().defaultTo(0);
    t.jsonb('failure');
    // The work queue: due when `due_at` has passed and no worker holds the lease.
    t.timestamp('due_at', { useTz: true });
    t.timestamp('locked_until', { useTz: true });
    // Set (and committed) before the platform is called, cleared with the outcome: still set on a later claim, the
    // last attempt's outcome is unknown and must be reconciled with the platform before anything is sent again.
    t.timestamp('attempt_started_at', { useTz: true });
    // What an adapter recorded between the steps of one publication (the chats sent to so far, a container id).
    t.jsonb('progress').notNullable().defaultTo('{}');
    t.primary(['post_id', 'account_id']);
    t.index(['account_id', 'post_id']);
  });
  await db.raw(`CREATE INDEX post_targets_due ON post_targets (due_at) WHERE status IN ('scheduled', 'processing')`);

  await db.schema.createTable('queue_slots', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable().references('profiles.id').onDelete('CASCADE');
    // ISO weekday: 1 Monday … 7 Sunday, so the natural order is the week's.
    t.smallint('day_of_week').notNullable();
    t.text('time').notNullable();
    t.text('timezone').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['profile_id', 'day_of_week', 'time', 'timezone']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('queue_slots');
  await db.schema.dropTableIfExists('post_targets');
  await db.schema.dropTableIfExists('posts');
}
