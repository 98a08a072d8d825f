import type { Knex } from 'knex';

/**
 * The server events the ads area sent to a pixel that named an `event_id` (src/modules/ads/pixels/events.ts): one
 * row per (ad account, pixel, event name, event id), claimed before the send in its transaction, so the same event
 * sent again (a retry, an overlapping batch) is not sent twice. Kept 8 days: no platform takes an older event.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('ad_pixel_events', (t) => {
    t.text('ad_account_id').notNullable().references('ad_accounts.id').onDelete('CASCADE');
    t.text('pixel_id').notNullable();
    t.text('event_name').notNullable();
    t.text('event_id').notNullable();
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['ad_account_id', 'pixel_id', 'event_name', 'event_id']);
  });
  await db.raw('CREATE INDEX ad_pixel_events_retention ON ad_pixel_events (sent_at)');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('ad_pixel_events');
}
