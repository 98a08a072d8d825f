import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ad_accounts', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable().references('profiles.id').onDelete('CASCADE');
    t.text('platform').notNullable();
    t.text('platform_ad_account_id').notNullable();
    t.text('name').notNullable();
    t.text('currency').notNullable();
    t.text('timezone').notNullable();
    t.text('status').notNullable().checkIn(['connected', 'needs_reconnection', 'disconnected', 'pending']);
    t.text('status_reason');
    t.text('platform_status').notNullable().defaultTo('unknown');
    t.text('credentials_ciphertext');
    t.timestamp('token_expires_at', { useTz: true });
    t.timestamp('connected_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['owner_id', 'id']);
    t.unique(['owner_id', 'platform', 'platform_ad_account_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('ad_accounts');
}
