import type { Knex } from 'knex';

// What other areas read of the connect area's tables, and its check that a real platform reaches PUBLIC_URL.

export { assertReachableBy, publicUrlUnreachableBy } from './platform.js';

/** The accounts whose qrchat session `holder` holds: a subquery for the caller's query (or awaited, the ids). */
export function qrchatAccountsHeldBy(db: Knex, holder: string): Knex.QueryBuilder {
  return db('qrchatSessions').where({ heldBy: holder }).select('accountId');
}
