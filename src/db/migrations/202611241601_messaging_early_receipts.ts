import type { Knex } from 'knex';

/**
 * Receipts that arrive before the sent message is stored (the platform's webhook can beat the transaction that
 * records its answer): kept here and applied when the message is stored; forgotten after a day.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('early_receipts', (t) => {
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('platform_message_id').notNullable();
    t.text('status').notNullable();
    t.timestamp('at', { useTz: true }).notNullable();
    t.jsonb('error');
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['account_id', 'platform_message_id', 'status']);
    t.index(['received_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('early_receipts');
}
