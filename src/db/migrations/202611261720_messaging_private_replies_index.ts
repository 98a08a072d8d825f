import type { Knex } from 'knex';

/**
 * The messages that answered a comment privately, found by the comment: a comment says whether it can still take
 * a private reply (a platform takes one per comment) by looking for one.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    'CREATE INDEX messages_private_replies_idx ON messages (account_id, reply_to_comment_id) WHERE reply_to_comment_id IS NOT NULL',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS messages_private_replies_idx');
}
