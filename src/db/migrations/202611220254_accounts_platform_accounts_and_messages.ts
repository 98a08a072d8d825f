import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('accounts', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable().references('profiles.id').onDelete('CASCADE');
    t.text('platform').notNullable();
    t.text('kind').notNullable();
    t.text('platform_account_id');
    t.text('name').notNullable();
    t.text('username');
    t.text('avatar_url');
    t.text('status').notNullable().checkIn(['connected', 'needs_reconnection', 'disconnected', 'pending']);
    t.text('status_reason');
    t.specificType('scopes', 'text[]').notNullable().defaultTo('{}');
    // Tokens and secrets, sealed (AES-256-GCM) as one JSON document; null once disconnected.
    t.text('credentials_ciphertext');
    t.timestamp('token_expires_at', { useTz: true });
    t.timestamp('connected_at', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    t.jsonb('last_error');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['owner_id', 'id']);
    // A platform account belongs to one profile of an owner; reconnecting it finds the same row.
    t.unique(['owner_id', 'platform', 'platform_account_id']);
  });

  // Every incoming platform webhook, stored raw before it is acknowledged; duplicates are dropped by key.
  await db.schema.createTable('platform_webhooks', (t) => {
    t.bigIncrements('id');
    t.text('platform').notNullable();
    t.text('dedupe_key').notNullable();
    // Our account, when the platform signs per account (the signature named it).
    t.text('source_account_id');
    t.text('body').notNullable();
    t.jsonb('headers').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('processed_at', { useTz: true });
    t.text('error');
    t.unique(['platform', 'dedupe_key']);
  });

  await db.schema.createTable('conversations', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable();
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('platform_conversation_id').notNullable();
    t.jsonb('participant').notNullable();
    t.timestamp('last_message_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['account_id', 'platform_conversation_id']);
  });

  await db.schema.createTable('messages', (t) => {
    t.text('id').primary();
    t.text('conversation_id').notNullable().references('conversations.id').onDelete('CASCADE');
    t.text('account_id').notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('direction').notNullable().checkIn(['in', 'out']);
    t.text('from_id').notNullable();
    t.text('text').notNullable();
    t.text('platform_message_id').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['account_id', 'platform_message_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['messages', 'conversations', 'platform_webhooks', 'accounts']) await db.schema.dropTableIfExists(table);
}
