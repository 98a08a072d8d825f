import type { Knex } from 'knex';

/** The ledger of platform writes that are not idempotent (src/modules/platform-writes). */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('platform_writes', (t) => {
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    // An account or an ad account: no foreign key, as either table may hold it.
    t.text('account_id').notNullable();
    // The caller's idempotency key: one write per key, owner and account, however often it is asked for.
    t.text('key').notNullable();
    t.text('kind').notNullable();
    t.jsonb('request').notNullable();
    t.text('status').notNullable().checkIn(['started', 'succeeded', 'failed', 'unknown']);
    t.integer('attempts').notNullable().defaultTo(1);
    // Set (and committed) before each platform call. Still `started` once the lease has run out: the answer was lost.
    t.timestamp('started_at', { useTz: true }).notNullable();
    t.timestamp('lease_until', { useTz: true });
    t.jsonb('result');
    t.jsonb('failure');
    t.timestamp('settled_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['owner_id', 'account_id', 'key']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('platform_writes');
}
