import type { Knex } from 'knex';

/**
 * Resumable (tus) uploads: who may write to each and what became of it. The bytes are the tus store's; this row
 * is what makes the media once (`media_id`, set in the transaction that inserts the media) and what expires.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('media_uploads', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').references('profiles.id').onDelete('CASCADE');
    t.text('filename');
    // Upload-Length; null while the client defers it (the store knows it then), set from the file once complete.
    t.bigInteger('length');
    t.text('status').notNullable().defaultTo('uploading').checkIn(['uploading', 'processing', 'completed', 'failed']);
    // When a finisher claimed it (`processing`): a claim older than the finish may take is taken over.
    t.timestamp('claimed_at', { useTz: true });
    t.text('media_id').unique();
    t.jsonb('error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    // The purge finds the expired ones by this index.
    t.index(['expires_at']);
    t.index(['profile_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('media_uploads');
}
