import type { Knex } from 'knex';

/**
 * A target due within the next seconds is leased ahead of its due time (locked_until) without changing its status:
 * the worker loads what its call needs meanwhile. `lease_token` names that lease, one random value per claim. At
 * the due time the worker starts only the targets that still carry its token: a post edited since has its targets
 * written anew under the same keys (no token), and one moved in time or cancelled has its token cleared or its
 * status changed, so its change wins over the lease.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE post_targets ADD COLUMN lease_token uuid');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('ALTER TABLE post_targets DROP COLUMN lease_token');
}
