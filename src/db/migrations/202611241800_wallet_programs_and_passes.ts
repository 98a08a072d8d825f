import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // A program: the design and the signing identity of a set of passes. The signing key is sealed with the
  // service's secret box; the certificate and the vendor's intermediate are public and kept as PEM.
  await db.schema.createTable('wallet_programs', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('id').inTable('owners').onDelete('CASCADE');
    t.text('profile_id').notNullable().references('id').inTable('profiles').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('pass_style').notNullable();
    t.text('transit_type');
    t.text('organization_name').notNullable();
    t.text('description').notNullable();
    t.jsonb('colors');
    t.text('logo_media_id');
    t.text('icon_media_id');
    t.text('logo_text');
    t.jsonb('fields').notNullable().defaultTo('[]');
    t.text('barcode_format');
    t.text('pass_type_identifier');
    t.text('team_identifier');
    t.text('certificate_pem');
    t.text('sealed_private_key');
    t.text('wwdr_pem');
    t.jsonb('certificate');
    t.timestamp('certificate_expires_at', { useTz: true });
    t.timestamp('connected_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['owner_id', 'id']);
  });
  // Every change of a pass takes the next tag: devices ask for the passes changed since the last tag they saw.
  await db.raw('CREATE SEQUENCE wallet_pass_tags');
  await db.schema.createTable('wallet_passes', (t) => {
    t.text('id').primary();
    t.text('program_id').notNullable().references('id').inTable('wallet_programs').onDelete('CASCADE');
    t.text('owner_id').notNullable();
    t.text('profile_id').notNullable();
    // Copied from the program (which cannot change it once it has passes): devices know a pass by both.
    t.text('pass_type_identifier').notNullable();
    t.text('serial_number').notNullable();
    t.text('holder_name');
    t.text('holder_email');
    t.jsonb('fields').notNullable().defaultTo('{}');
    t.text('barcode_message').notNullable();
    t.bigInteger('balance').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true });
    t.text('sealed_download_token').notNullable();
    t.text('sealed_authentication_token').notNullable();
    t.bigInteger('update_tag').notNullable().defaultTo(db.raw("nextval('wallet_pass_tags')"));
    // Whole seconds, strictly increasing per pass: HTTP dates have no finer grain, and a device that sends back
    // the Last-Modified of its copy must never be told "not modified" about a later change in the same second.
    t.timestamp('modified_at', { useTz: true }).notNullable().defaultTo(db.raw("date_trunc('second', now())"));
    // A deleted pass stays for the devices that hold it (served void), and keeps its serial number taken.
    t.timestamp('deleted_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.unique(['pass_type_identifier', 'serial_number']);
    t.index(['program_id', 'id']);
  });
  await db.raw('ALTER TABLE wallet_passes ADD CONSTRAINT wallet_passes_balance_not_negative CHECK (balance >= 0)');
  await db.schema.createTable('wallet_transactions', (t) => {
    t.text('id').primary();
    t.text('pass_id').notNullable().references('id').inTable('wallet_passes').onDelete('CASCADE');
    t.text('type').notNullable();
    t.bigInteger('points').notNullable();
    t.bigInteger('amount');
    t.text('currency');
    t.text('note');
    t.text('reference');
    t.bigInteger('balance_after').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['pass_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('wallet_transactions');
  await db.schema.dropTable('wallet_passes');
  await db.raw('DROP SEQUENCE wallet_pass_tags');
  await db.schema.dropTable('wallet_programs');
}
