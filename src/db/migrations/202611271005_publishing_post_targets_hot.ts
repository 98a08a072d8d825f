import type { Knex } from 'knex';

/**
 * A target is written three times on its way out: its claim, its attempt's mark (`attempt_started_at`, `attempts`:
 * no index holds them) and its outcome. PostgreSQL writes the mark's row version without new entries in the
 * table's three indexes (a heap-only update) only when the row's page has room for it: with full pages, a burst of
 * 10,000 posts made 4,051 of its 29,615 target updates heap-only. Pages filled to 60 % keep that room, as for
 * deliveries (202611270710). Pages are filled so from now on; the rows already there stay as they are.
 *
 * The claim and the outcome stay full updates: they change `status`, which the due index's predicate names (a
 * predicate of `due_at IS NOT NULL` instead let the planner, with statistics from before a burst, claim by reading
 * the whole table), and the outcome clears `due_at`.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE post_targets SET (fillfactor = 60)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE post_targets RESET (fillfactor)');
}
