// The rows of the usage area's table, as Knex reads them (columns in camelCase).

/** One counter of an owner's month, per profile ('' for what belongs to no profile), as `usage_counters` keeps it. */
export interface UsageCounterRow {
  ownerId: string;
  profileId: string;
  period: string;
  counter: string;
  /** A bigint: PostgreSQL's driver reads it as a string. */
  value: string;
  updatedAt: Date;
}
