import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('conversations', (t) => {
    t.integer('unread_count').notNullable().defaultTo(0);
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['account_id', 'id']);
  });
  await db.schema.alterTable('messages', (t) => {
    t.text('type').notNullable().defaultTo('text');
    t.text('status').notNullable().defaultTo('received');
    t.index(['conversation_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('messages', (t) => {
    t.dropColumn('type');
    t.dropColumn('status');
  });
  await db.schema.alterTable('conversations', (t) => {
    t.dropColumn('unread_count');
    t.dropColumn('tags');
    t.dropColumn('updated_at');
  });
}
