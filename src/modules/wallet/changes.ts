import type { Knex } from 'knex';

/**
 * What every change of a pass writes besides its own members: the next update tag (devices ask for the passes
 * changed since the last tag they saw), a Last-Modified second later than the previous version's (so a device's
 * If-Modified-Since never hides a change made within the same second), and `updatedAt`.
 */
export function versionBump(db: Knex): Record<string, Knex.Raw> {
  return {
    updateTag: db.raw("nextval('wallet_pass_tags')"),
    modifiedAt: db.raw("greatest(date_trunc('second', now()), modified_at + interval '1 second')"),
    updatedAt: db.raw('now()'),
  };
}
