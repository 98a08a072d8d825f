import { int, intList } from '../../lib/env.js';

export interface CommerceSettings {
  /** Changes sent in one platform batch at most (the platform's own limit caps it). */
  platformBatchSize: number;
  /** Milliseconds between the looks at a platform batch still in progress, one after another; the last repeats. */
  pollScheduleMs: number[];
  /** A platform batch not finished this long after it was first sent is given up: its pending items fail. */
  giveUpSeconds: number;
  /** Platform batches worked on at once per worker process. */
  concurrency: number;
  /** How soon after a worker dies another takes its batches over. */
  leaseSeconds: number;
  /** How long a batch request (or a delete) waits for the platform before answering 202 with what is pending. */
  answerWaitMs: number;
  /** A product pending review is first read again this long after it was synced; each look then waits as long as
   * the product had waited at the previous one, up to `reviewLastLookMs`. */
  reviewFirstLookMs: number;
  reviewLastLookMs: number;
}

export function commerceSettings(env: NodeJS.ProcessEnv): { commerce: CommerceSettings } {
  return {
    commerce: {
      platformBatchSize: int('COMMERCE_PLATFORM_BATCH_SIZE', 5000, env),
      pollScheduleMs: intList('COMMERCE_POLL_SCHEDULE_MS', [500, 1000, 2000, 5000, 15_000, 60_000], env),
      giveUpSeconds: int('COMMERCE_BATCH_GIVE_UP_SECONDS', 6 * 3600, env),
      concurrency: int('COMMERCE_WORKER_CONCURRENCY', 8, env),
      leaseSeconds: int('COMMERCE_WORKER_LEASE_SECONDS', 60, env),
      answerWaitMs: int('COMMERCE_ANSWER_WAIT_MS', 3000, env),
      reviewFirstLookMs: int('COMMERCE_REVIEW_FIRST_LOOK_MS', 60_000, env),
      reviewLastLookMs: int('COMMERCE_REVIEW_LAST_LOOK_MS', 6 * 3600_000, env),
    },
  };
}
