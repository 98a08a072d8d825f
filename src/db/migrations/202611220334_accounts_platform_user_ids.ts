import type { Knex } from 'knex';

/**
 * Who at the platform granted an account's token (Meta's app-scoped user id). When that person removes the app,
 * the platform names only them (deauthorize callback, permissions webhook): this finds the accounts affected.
 */
export async function up(db: Knex): Promise<void> {
  for (const table of ['accounts', 'ad_accounts']) {
    await db.schema.alterTable(table, (t) => {
      t.text('platform_user_id');
      t.index(['platform', 'platform_user_id']);
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['accounts', 'ad_accounts']) {
    await db.schema.alterTable(table, (t) => {
      t.dropIndex(['platform', 'platform_user_id']);
      t.dropColumn('platform_user_id');
    });
  }
}
