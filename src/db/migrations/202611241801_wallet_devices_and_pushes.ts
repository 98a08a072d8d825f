import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // The devices that hold a pass and asked for its updates (the pass web service's registrations).
  await db.schema.createTable('wallet_registrations', (t) => {
    t.text('device_library_identifier').notNullable();
    t.text('pass_id').notNullable().references('id').inTable('wallet_passes').onDelete('CASCADE');
    t.text('push_token').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['device_library_identifier', 'pass_id']);
    t.index(['pass_id']);
    t.index(['push_token']);
  });
  // The pushes owed to devices (an outbox drained by the push worker under a lease). One per device token and
  // pass type: a push makes the device fetch every pass of that type that changed, so pushes owed coalesce;
  // `requeued` marks a change made while the push was being sent, which owes the device another.
  await db.schema.createTable('wallet_pushes', (t) => {
    t.bigIncrements('id');
    t.text('push_token').notNullable();
    t.text('pass_type_identifier').notNullable();
    t.text('program_id').notNullable().references('id').inTable('wallet_programs').onDelete('CASCADE');
    t.boolean('requeued').notNullable().defaultTo(false);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('due_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('lease_until', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['push_token', 'pass_type_identifier']);
    t.index(['due_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('wallet_pushes');
  await db.schema.dropTable('wallet_registrations');
}
