import type { Knex } from 'knex';

/**
 * Commerce: catalogs reached through page accounts, their products (our records, mirrored to the platform), product
 * sets, and batches of product changes, whose platform parts the commerce worker sends and polls under a lease
 * (src/modules/commerce/worker.ts).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('commerce_catalogs', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable().references('profiles.id').onDelete('CASCADE');
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('platform').notNullable();
    t.text('platform_catalog_id').notNullable();
    t.text('business_id').notNullable();
    t.text('name').notNullable();
    t.text('vertical').notNullable();
    t.integer('product_count').notNullable().defaultTo(0);
    // When the catalog's products were last read from the platform (imported); null: never yet.
    t.timestamp('products_read_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['account_id', 'platform_catalog_id']);
  });
  await db.raw('CREATE INDEX commerce_catalogs_owner_list ON commerce_catalogs (owner_id, id DESC)');

  await db.schema.createTable('commerce_products', (t) => {
    t.text('id').primary();
    t.text('catalog_id').notNullable().references('commerce_catalogs.id').onDelete('CASCADE');
    t.text('retailer_id').notNullable();
    t.text('platform_product_id');
    // Every product member of the contract but those filtered on, which have columns of their own.
    t.jsonb('fields').notNullable();
    t.text('availability').notNullable();
    t.text('review_status');
    t.text('sync_status').notNullable().checkIn(['pending', 'synced', 'failed']);
    t.text('sync_operation').notNullable().checkIn(['create', 'update', 'delete']);
    t.text('sync_batch_id');
    t.jsonb('sync_errors').notNullable().defaultTo('[]');
    t.timestamp('synced_at', { useTz: true });
    t.timestamp('deleted_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  // One live product per retailer id in a catalog; deleted ones are kept a while for their batch's list.
  await db.raw('CREATE UNIQUE INDEX commerce_products_retailer ON commerce_products (catalog_id, retailer_id) WHERE deleted_at IS NULL');
  // The catalog's list, newest first, and its filters.
  await db.raw('CREATE INDEX commerce_products_list ON commerce_products (catalog_id, id DESC) WHERE deleted_at IS NULL');
  await db.raw(
    'CREATE INDEX commerce_products_availability ON commerce_products (catalog_id, availability, id DESC) WHERE deleted_at IS NULL',
  );
  await db.raw('CREATE INDEX commerce_products_sync ON commerce_products (catalog_id, sync_status, id DESC) WHERE deleted_at IS NULL');
  await db.raw('CREATE INDEX commerce_products_review ON commerce_products (catalog_id, review_status, id DESC) WHERE deleted_at IS NULL');

  await db.schema.createTable('commerce_batches', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('catalog_id').notNullable().references('commerce_catalogs.id').onDelete('CASCADE');
    t.text('status').notNullable().checkIn(['processing', 'finished']);
    t.integer('item_count').notNullable();
    t.integer('succeeded_count').notNullable().defaultTo(0);
    t.integer('failed_count').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('finished_at', { useTz: true });
  });

  // One platform batch (`items_batch`) of a batch: sent, then polled until the platform has finished it.
  await db.schema.createTable('commerce_batch_parts', (t) => {
    t.text('batch_id').notNullable().references('commerce_batches.id').onDelete('CASCADE');
    t.integer('part').notNullable();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('status').notNullable().checkIn(['unsent', 'sent', 'done']);
    // The platform's handle, written and committed before it is polled: a crash polls it, never sends again.
    t.text('handle');
    // Sends of the part so far that the platform lost (an unknown handle): each next send has a write key of its own.
    t.integer('generation').notNullable().defaultTo(0);
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('locked_until', { useTz: true });
    // Items still pending then fail: the platform never finished the part.
    t.timestamp('give_up_at', { useTz: true }).notNullable();
    t.primary(['batch_id', 'part']);
  });
  await db.raw("CREATE INDEX commerce_batch_parts_due ON commerce_batch_parts (next_attempt_at) WHERE status <> 'done'");

  await db.schema.createTable('commerce_batch_items', (t) => {
    t.text('batch_id').notNullable().references('commerce_batches.id').onDelete('CASCADE');
    t.integer('index').notNullable();
    t.integer('part');
    t.text('method').notNullable().checkIn(['CREATE', 'UPDATE', 'DELETE']);
    t.text('retailer_id').notNullable();
    t.text('product_id');
    // The members sent to the platform (ours, as the request gave them); null for a delete or an item failed at once.
    t.jsonb('data');
    t.text('status').notNullable().checkIn(['pending', 'succeeded', 'failed']);
    t.jsonb('errors').notNullable().defaultTo('[]');
    t.primary(['batch_id', 'index']);
  });
  await db.raw('CREATE INDEX commerce_batch_items_part ON commerce_batch_items (batch_id, part)');

  await db.schema.createTable('commerce_product_sets', (t) => {
    t.text('id').primary();
    t.text('catalog_id').notNullable().references('commerce_catalogs.id').onDelete('CASCADE');
    t.text('platform_product_set_id').notNullable();
    t.text('name').notNullable();
    t.jsonb('filter');
    t.integer('product_count').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['catalog_id', 'platform_product_set_id']);
  });
  await db.raw('CREATE INDEX commerce_product_sets_list ON commerce_product_sets (catalog_id, id DESC)');
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['commerce_product_sets', 'commerce_batch_items', 'commerce_batch_parts', 'commerce_batches', 'commerce_products'])
    await db.schema.dropTableIfExists(table);
  await db.schema.dropTableIfExists('commerce_catalogs');
}
