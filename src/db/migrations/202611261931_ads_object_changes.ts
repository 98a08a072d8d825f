import type { Knex } from 'knex';

/**
 * The ad platform's notifications about an ad account's objects, as the ads area took them (src/modules/ads/events/):
 * one row per change of an object's field at the platform's time, so that a duplicate is recognised and a change
 * older than one already sent is not sent after it.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ad_object_changes', (t) => {
    t.text('ad_account_id').notNullable().references('ad_accounts.id').onDelete('CASCADE');
    // The object (its platform id), or for a recommendation its hash (the objects it names when it has none).
    t.text('object_key').notNullable();
    t.text('field').notNullable();
    t.timestamp('platform_time', { useTz: true }).notNullable();
    // What the change said: two different changes within one second of the platform's clock are both kept.
    t.text('fingerprint').notNullable();
    t.boolean('emitted').notNullable();
    t.timestamp('received_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['ad_account_id', 'object_key', 'field', 'platform_time', 'fingerprint']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('ad_object_changes');
}
