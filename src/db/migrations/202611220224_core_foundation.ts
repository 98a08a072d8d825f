import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('owners', (t) => {
    t.text('id').primary();
    t.text('email').notNullable().unique();
    t.text('password_hash').notNullable();
    t.text('name');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  await db.schema.createTable('sessions', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('revoked_at', { useTz: true });
    t.index(['expires_at']);
  });
  await db.schema.createTable('profiles', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('description');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['owner_id', 'id']);
  });
  await db.schema.createTable('api_keys', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('prefix').notNullable();
    t.text('secret_hash').notNullable().unique();
    // null = unrestricted; otherwise the profiles the key may reach.
    t.specificType('profile_ids', 'text[]');
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.index(['owner_id', 'id']);
  });
  await db.schema.createTable('idempotency_keys', (t) => {
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable().checkIn(['running', 'completed']);
    t.integer('response_status');
    t.jsonb('response_headers');
    t.binary('response_body');
    t.timestamp('locked_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['owner_id', 'key']);
    t.index(['expires_at']);
  });
  // The shape rate-limiter-flexible's PostgreSQL store expects; created here so no request creates tables.
  await db.schema.createTable('rate_limits', (t) => {
    t.string('key', 255).primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['rate_limits', 'idempotency_keys', 'api_keys', 'profiles', 'sessions', 'owners']) {
    await db.schema.dropTableIfExists(table);
  }
}
