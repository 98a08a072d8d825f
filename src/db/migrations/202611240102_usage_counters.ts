import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // One row per owner, profile ('' for what belongs to no profile), month and counter; written only by the
  // recorders' batched upserts, never per request. No foreign keys: a batch must not fail for one deleted owner.
  await db.schema.createTable('usage_counters', (t) => {
    t.text('owner_id').notNullable();
    t.text('profile_id').notNullable().defaultTo('');
    t.text('period').notNullable();
    t.text('counter').notNullable();
    t.bigInteger('value').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['owner_id', 'period', 'counter', 'profile_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('usage_counters');
}
