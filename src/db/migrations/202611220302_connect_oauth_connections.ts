import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // A started OAuth connection: the `state` is random, single use, expiring, bound to owner, profile, platform.
  await db.schema.createTable('oauth_states', (t) => {
    t.text('state').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable().references('profiles.id').onDelete('CASCADE');
    t.text('platform').notNullable();
    t.text('redirect_url');
    // Sealed: the PKCE verifier proves to the platform that we started this flow.
    t.text('code_verifier_ciphertext');
    t.specificType('include', 'text[]').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
  });

  // A grant waiting for the user to choose what to connect (pages and ad accounts of social_network).
  await db.schema.createTable('pending_connections', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('profile_id').notNullable().references('profiles.id').onDelete('CASCADE');
    t.text('platform').notNullable();
    t.text('credentials_ciphertext').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('pending_connections');
  await db.schema.dropTableIfExists('oauth_states');
}
