import type { Knex } from 'knex';

/**
 * The products the review poller looks at (synced, on the platform, review pending), soonest looked at first: its
 * claim reads them by `updated_at` under this index's WHERE, however large the catalogs grow around them.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    `CREATE INDEX commerce_products_review_due ON commerce_products (updated_at)
     WHERE review_status = 'pending' AND sync_status = 'synced' AND deleted_at IS NULL AND platform_product_id IS NOT NULL`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX IF EXISTS commerce_products_review_due');
}
