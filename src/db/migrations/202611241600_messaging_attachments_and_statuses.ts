import type { Knex } from 'knex';

/**
 * Messages carry their attachments (incoming media, files sent) and, when sent, each status the platform's
 * receipts report with its time and the platform's reason for a failure. `reply_to_comment_id`: the comment a
 * private reply answered.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('messages', (t) => {
    t.jsonb('attachments').notNullable().defaultTo('[]');
    t.jsonb('status_history').notNullable().defaultTo('[]');
    t.jsonb('error');
    t.text('reply_to_comment_id');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('messages', (t) => {
    t.dropColumn('attachments');
    t.dropColumn('status_history');
    t.dropColumn('error');
    t.dropColumn('reply_to_comment_id');
  });
}
