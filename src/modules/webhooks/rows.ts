// The rows of the webhooks area's table, as Knex reads them (columns in camelCase).

/** A platform's (or the payment provider's) webhook as `platform_webhooks` keeps it: the intake worker's queue. */
export interface PlatformWebhookRow {
  /** A bigint: PostgreSQL's driver reads it as a string. */
  id: string;
  platform: string;
  dedupeKey: string;
  /** Our account, when the platform signs per account (the signature named it). */
  sourceAccountId: string | null;
  body: string;
  headers: Record<string, unknown>;
  receivedAt: Date;
  processedAt: Date | null;
  /** The last attempt's error. */
  error: string | null;
  /** Attempts that failed so far. */
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
  failedAt: Date | null;
  /** Generated: the source account, or `platform:<platform>` when the platform signs for all its accounts. */
  intakeKey: string;
}
