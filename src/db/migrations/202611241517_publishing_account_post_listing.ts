import type { Knex } from 'knex';

/**
 * `GET /posts?accountId=` walked the owner's posts newest first and probed each for a target on the account: an
 * account whose posts are all old was read past every newer post of the owner first. Each target now carries its
 * post's `scheduled_at` (written with it by publishing), so the account's posts come straight from
 * (account_id, scheduled_at, post_id) in the list's own order. That index also serves every other lookup by
 * account, so it replaces (account_id, post_id).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE post_targets ADD COLUMN scheduled_at timestamptz');
  await db.raw('UPDATE post_targets t SET scheduled_at = p.scheduled_at FROM posts p WHERE p.id = t.post_id');
  await db.raw('ALTER TABLE post_targets ALTER COLUMN scheduled_at SET NOT NULL');
  await db.raw('CREATE INDEX post_targets_account_listing ON post_targets (account_id, scheduled_at, post_id)');
  await db.raw('DROP INDEX post_targets_account_id_post_id_index');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('CREATE INDEX IF NOT EXISTS post_targets_account_id_post_id_index ON post_targets (account_id, post_id)');
  await db.raw('DROP INDEX IF EXISTS post_targets_account_listing');
  await db.raw('ALTER TABLE post_targets DROP COLUMN scheduled_at');
}
