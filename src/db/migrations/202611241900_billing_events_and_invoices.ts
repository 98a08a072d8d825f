import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // When the subscription recorded was created at the provider: an event about an older one never replaces it.
  await db.schema.alterTable('billing_accounts', (t) => {
    t.timestamp('subscription_created_at', { useTz: true });
  });
  // The provider's events, stored once by their id (it sends some twice) and processed by a job.
  await db.schema.createTable('billing_events', (t) => {
    t.text('id').primary();
    t.text('type').notNullable();
    t.text('body').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('processed_at', { useTz: true });
    t.text('error');
    t.index(['processed_at', 'received_at']);
  });
  // The owners' invoices as last fetched from the provider.
  await db.schema.createTable('billing_invoices', (t) => {
    t.text('id').primary();
    t.text('owner_id').notNullable().references('owners.id').onDelete('CASCADE');
    t.text('number');
    t.text('status').notNullable();
    t.integer('amount_due').notNullable();
    t.integer('amount_paid').notNullable();
    t.text('currency').notNullable();
    t.text('plan').notNullable();
    t.timestamp('period_start', { useTz: true }).notNullable();
    t.timestamp('period_end', { useTz: true }).notNullable();
    t.text('hosted_invoice_url');
    t.text('invoice_pdf_url');
    t.timestamp('provider_created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.index(['owner_id', 'provider_created_at', 'id']);
  });
  // Each status an invoice reached (and each failed payment attempt), announced once: the key is the guard.
  await db.schema.createTable('billing_invoice_transitions', (t) => {
    t.text('invoice_id').notNullable().references('billing_invoices.id').onDelete('CASCADE');
    t.text('transition').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['invoice_id', 'transition']);
  });
  await db.schema.createTable('billing_invoice_cancellations', (t) => {
    t.bigIncrements('id');
    t.text('invoice_id').notNullable().references('billing_invoices.id').onDelete('CASCADE');
    t.text('status').notNullable();
    t.text('method').notNullable();
    t.text('reason');
    t.integer('amount').notNullable();
    t.text('currency').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
  // One cancellation under way or done per invoice; a rejected one may be asked for again.
  await db.raw(
    "CREATE UNIQUE INDEX billing_invoice_cancellations_live ON billing_invoice_cancellations (invoice_id) WHERE status <> 'rejected'",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('billing_invoice_cancellations');
  await db.schema.dropTable('billing_invoice_transitions');
  await db.schema.dropTable('billing_invoices');
  await db.schema.dropTable('billing_events');
  await db.schema.alterTable('billing_accounts', (t) => {
    t.dropColumn('subscription_created_at');
  });
}
