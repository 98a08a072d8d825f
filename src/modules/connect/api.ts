import type { Knex } from 'knex';

// What other areas read of the connect area's tables.

/** The accounts whose qrchat session `holder` holds: a subquery for the caller's query (or awaited, the ids). */
export function qrchatAccountsHeldBy(db: Knex, holder: string): Knex.QueryBuilder {
  return db('qrchatSessions').where({ heldBy: holder }).select('accountId');
}
