import type { Knex } from 'knex';

/**
 * A deleted profile keeps its row (`deleted_at`), as its accounts and posts keep theirs, so that their history
 * still names it; every read of profiles leaves it out. What its deletion owes the platforms (a grant revoked, a
 * webhook removed, a device logged out) is written in the deletion's own transaction to `account_revocations`
 * (the outbox) with the sealed credentials that can do it, and done after the commit by the accounts worker.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('profiles', (t) => {
    t.timestamp('deleted_at', { useTz: true });
  });
  await db.schema.createTable('account_revocations', (t) => {
    // An account's or an ad account's id: at most one revocation owed per connection.
    t.text('account_id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('credentials_ciphertext').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('due_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('locked_until', { useTz: true });
    t.text('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['due_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('account_revocations');
  await db.schema.alterTable('profiles', (t) => {
    t.dropColumn('deleted_at');
  });
}
