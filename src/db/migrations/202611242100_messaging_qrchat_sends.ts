import type { Knex } from 'knex';

/**
 * qrchat sends waiting for the worker process that holds the account's session: written with the stored message
 * (status `pending`) in the transaction that settles the send's ledger write, drained by the session's holder,
 * which sends each with its own message id and records the outcome.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('qrchat_sends', (t) => {
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('platform_message_id').notNullable();
    t.jsonb('message').notNullable();
    t.text('status').notNullable().defaultTo('queued').checkIn(['queued', 'sent', 'failed']);
    t.text('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('settled_at', { useTz: true });
    t.primary(['account_id', 'platform_message_id']);
  });
  await db.raw(`create index qrchat_sends_queued on qrchat_sends (account_id, created_at) where status = 'queued'`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('qrchat_sends');
}
