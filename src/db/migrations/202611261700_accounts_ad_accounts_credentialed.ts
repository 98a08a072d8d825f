import type { Knex } from 'knex';

/**
 * Ad accounts keep what accounts keep of their platform, so the one seam, refresh and platform check serve both:
 * the scopes their grant holds, the last success and failure of a platform call, and when the platform check last
 * read them.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE ad_accounts
      ADD COLUMN scopes text[] NOT NULL DEFAULT '{}',
      ADD COLUMN last_success_at timestamptz,
      ADD COLUMN last_error jsonb,
      ADD COLUMN platform_checked_at timestamptz`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`
    ALTER TABLE ad_accounts
      DROP COLUMN scopes, DROP COLUMN last_success_at, DROP COLUMN last_error, DROP COLUMN platform_checked_at`);
}
