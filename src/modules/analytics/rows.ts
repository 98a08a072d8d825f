// The rows of the analytics area's tables, as Knex reads them (columns in camelCase).

/** Figures read from a platform, cached per account and key (metric and window) until `expiresAt`. */
export interface AnalyticsCacheRow<Figures = unknown> {
  accountId: string;
  key: string;
  figures: Figures;
  updatedAt: Date;
  expiresAt: Date;
}

/** A metric a platform refused as invalid at an API version: not asked again at that version. */
export interface DeadMetricRow {
  platform: string;
  apiVersion: string;
  metric: string;
  refusal: string;
  foundAt: Date;
}

/** An account's followers on a day, for platforms that give only a current count (the day's first kept). */
export interface FollowerSnapshotRow {
  accountId: string;
  /** A date: written as `YYYY-MM-DD`, read as text with to_char (the driver would read a Date at local midnight). */
  day: Date;
  followers: number;
  takenAt: Date;
}

/** Until when a platform that throttled an account asked not to be called for it again. */
export interface AnalyticsThrottleRow {
  accountId: string;
  until: Date;
  message: string;
}
