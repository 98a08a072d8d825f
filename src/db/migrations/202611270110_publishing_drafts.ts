import type { Knex } from 'knex';

/**
 * Drafts (issue 32): a post and its targets may be `draft`, saved and never due (no `due_at`, so no claim takes
 * them). A draft's `scheduled_at` is the time it was saved: the post list's order and its `from`/`to`, and the API
 * shows `scheduledAt: null`.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE posts DROP CONSTRAINT posts_status_check, ADD CONSTRAINT posts_status_check
      CHECK (status IN ('draft', 'scheduled', 'processing', 'published', 'partial', 'failed', 'cancelled', 'deleted'))`);
  await db.raw(`
    ALTER TABLE post_targets DROP CONSTRAINT post_targets_status_check, ADD CONSTRAINT post_targets_status_check
      CHECK (status IN ('draft', 'scheduled', 'processing', 'published', 'failed', 'cancelled', 'deleted'))`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`DELETE FROM posts WHERE status = 'draft'`);
  await db.raw(`
    ALTER TABLE posts DROP CONSTRAINT posts_status_check, ADD CONSTRAINT posts_status_check
      CHECK (status IN ('scheduled', 'processing', 'published', 'partial', 'failed', 'cancelled', 'deleted'))`);
  await db.raw(`
    ALTER TABLE post_targets DROP CONSTRAINT post_targets_status_check, ADD CONSTRAINT post_targets_status_check
      CHECK (status IN ('scheduled', 'processing', 'published', 'failed', 'cancelled', 'deleted'))`);
}
