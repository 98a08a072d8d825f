import { int, intList } from '../../lib/env.js';

export interface IntakeSettings {
  /** Accounts whose stored platform webhooks are processed at once per worker process (each in its own order). */
  concurrency: number;
  /** Stored webhooks of one account taken per claim, processed one after another in the order received. */
  batchSize: number;
  /** How long a claim lasts without renewal: how soon after a worker dies another goes on with what it held. */
  leaseSeconds: number;
  /**
   * Seconds to wait before each new attempt after processing a stored webhook failed: attempt n + 1 waits
   * schedule[n - 1]; after the last the webhook is given up, its error kept. The account's later webhooks wait
   * meanwhile (they are processed in order), so the schedule is short. A source may declare its own
   * (`WebhookReceiver.retryScheduleSeconds`); this one is the platforms'.
   */
  retryScheduleSeconds: number[];
}

export function intakeSettings(env: NodeJS.ProcessEnv): { intake: IntakeSettings } {
  return {
    intake: {
      concurrency: int('PLATFORM_WEBHOOK_CONCURRENCY', 16, env),
      batchSize: int('PLATFORM_WEBHOOK_BATCH', 50, env),
      leaseSeconds: int('PLATFORM_WEBHOOK_LEASE_SECONDS', 10, env),
      retryScheduleSeconds: intList('PLATFORM_WEBHOOK_RETRY_SCHEDULE', [1, 5, 30], env),
    },
  };
}
