import type { Knex } from 'knex';

/**
 * What the latest check of an account's platform side found (a bot whose webhook is no longer ours): the
 * problem, null when it was fine, and when it was checked. Connecting the account again clears it.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE accounts ADD COLUMN platform_problem text, ADD COLUMN platform_checked_at timestamptz');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE accounts DROP COLUMN platform_problem, DROP COLUMN platform_checked_at');
}
