import type { Knex } from 'knex';

/**
 * Queue slots per account (as per-channel schedules): a slot may be kept for some of its profile's accounts
 * (`account_ids`, in id order; null: every account of the profile). Two slots at the same day, time and zone are
 * then the same slot only when they serve the same accounts: one for each of two accounts is two slots.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('queue_slots', (t) => {
    t.specificType('account_ids', 'text[]');
    t.dropUnique(['profile_id', 'day_of_week', 'time', 'timezone']);
  });
  // An empty list is refused by the API, so '{}' stands for "every account" in the index alone.
  await db.raw(
    `CREATE UNIQUE INDEX queue_slots_occurrence ON queue_slots (profile_id, day_of_week, time, timezone, COALESCE(account_ids, '{}'))`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('DROP INDEX queue_slots_occurrence');
  await db.raw('DELETE FROM queue_slots WHERE account_ids IS NOT NULL');
  await db.schema.alterTable('queue_slots', (t) => {
    t.dropColumn('account_ids');
    t.unique(['profile_id', 'day_of_week', 'time', 'timezone']);
  });
}
