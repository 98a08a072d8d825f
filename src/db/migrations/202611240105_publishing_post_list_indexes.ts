import type { Knex } from 'knex';

/**
 * `GET /posts` filtered by profile or by status walks (owner_id, scheduled_at, id) and drops what does not match;
 * a profile or a status whose posts are all old would be read past every newer post of the owner first. These
 * give each filter its own order (scripts/bench/posts.ts shows the plans).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('CREATE INDEX posts_profile_listing ON posts (profile_id, scheduled_at, id)');
  await db.raw('CREATE INDEX posts_status_listing ON posts (owner_id, status, scheduled_at, id)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS posts_status_listing');
  await db.raw('DROP INDEX IF EXISTS posts_profile_listing');
}
