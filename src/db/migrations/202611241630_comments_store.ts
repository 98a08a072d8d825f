import type { Knex } from 'knex';

/**
 * The comments on connected accounts' posts, as the platforms' webhooks and first reads report them: one row per
 * (account, platform comment id), so a webhook delivered twice adds nothing. Each change carries the platform's
 * time, and a field moves only forward in it (`text_at`, `hidden_at`): an edit delivered before the comment's
 * own webhook is kept, and a removal is final. `id` is a ULID of the comment's own time, so the keyset list by
 * id is the platform's newest-first order.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('comments', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('platform').notNullable();
    t.text('platform_comment_id').notNullable();
    t.text('platform_post_id').notNullable();
    // Our post, when the service published the one commented on.
    t.text('post_id');
    t.text('parent_id');
    t.text('author_id');
    t.text('author_name');
    t.text('author_username');
    t.text('text').notNullable().defaultTo('');
    t.timestamp('text_at', { useTz: true });
    t.boolean('hidden').notNullable().defaultTo(false);
    t.timestamp('hidden_at', { useTz: true });
    t.boolean('deleted').notNullable().defaultTo(false);
    // Seen only through an edit, a hide or a removal so far: shown once the comment itself is known.
    t.boolean('known').notNullable().defaultTo(true);
    t.integer('like_count');
    t.text('permalink');
    t.boolean('can_hide').notNullable().defaultTo(false);
    t.boolean('can_delete').notNullable().defaultTo(false);
    t.boolean('can_reply').notNullable().defaultTo(true);
    t.boolean('can_reply_privately').notNullable().defaultTo(false);
    t.timestamp('written_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['account_id', 'platform_comment_id']);
  });
  await db.raw('CREATE INDEX comments_account_listing ON comments (account_id, id) WHERE NOT deleted AND known');
  await db.raw('CREATE INDEX comments_post_listing ON comments (account_id, platform_post_id, id) WHERE NOT deleted AND known');
  await db.raw('CREATE INDEX comments_replies ON comments (account_id, parent_id) WHERE parent_id IS NOT NULL');

  // What was read from the platform once: an account's recent posts ('account'), or one post (its platform id).
  await db.schema.createTable('comment_backfills', (t) => {
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('scope').notNullable();
    t.timestamp('done_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['account_id', 'scope']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('comment_backfills');
  await db.schema.dropTableIfExists('comments');
}
