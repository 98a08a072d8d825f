import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // The owner's standing at the payment provider: written by the billing area from the provider's webhooks,
  // read by usage for the plan. No row: no customer yet (plan `free`, subscription `none`).
  await db.schema.createTable('billing_accounts', (t) => {
    t.text('owner_id').primary().references('owners.id').onDelete('CASCADE');
    t.text('customer_id').unique();
    t.text('subscription_id');
    // The plan the subscription is for; it applies while the subscription is trialing, active or past_due.
    t.text('plan');
    t.text('subscription_status').notNullable().defaultTo('none');
    t.timestamp('current_period_start', { useTz: true });
    t.timestamp('current_period_end', { useTz: true });
    t.boolean('cancel_at_period_end').notNullable().defaultTo(false);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('billing_accounts');
}
