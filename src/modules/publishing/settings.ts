import { int, intList } from '../../lib/env.js';

export interface PublishingSettings {
  /**
   * Targets being published at once per worker process: in their platform call, or waiting for the commit of their
   * outcome (settled in batches). In a burst a third or more of them wait for that commit, so this is set well above
   * the calls wanted in flight. A worker killed mid-burst leaves at most this many to reconcile.
   */
  concurrency: number;
  /**
   * How long a claim on a target lasts without renewal: a live worker renews it while it publishes, so this is how
   * soon after a worker dies another takes its targets over (and reconciles those whose call it had made).
   */
  leaseSeconds: number;
  /** Seconds before each retry of a passing failure (rate limit, platform down); then the target fails. */
  retryScheduleSeconds: number[];
  /**
   * Scheduled targets due within this many seconds are leased ahead of their due time, their attempts prepared,
   * so that at the due time only their start, their calls and their settlement remain (worker.ts); 0: none.
   */
  lookaheadSeconds: number;
  /** At most this many targets held ahead per worker process (the rest are claimed when due). */
  lookaheadTargets: number;
  /** The soonest a post may be scheduled, from now; 0: any time in the future. */
  minScheduleAheadSeconds: number;
}

export function publishingSettings(env: NodeJS.ProcessEnv): { publishing: PublishingSettings } {
  return {
    publishing: {
      concurrency: int('PUBLISH_CONCURRENCY', 400, env),
      leaseSeconds: int('PUBLISH_LEASE_SECONDS', 10, env),
      lookaheadSeconds: int('PUBLISH_LOOKAHEAD_SECONDS', 5, env),
      lookaheadTargets: int('PUBLISH_LOOKAHEAD_TARGETS', 10_000, env),
      retryScheduleSeconds: intList('PUBLISH_RETRY_SCHEDULE', [10, 60, 300, 900], env),
      minScheduleAheadSeconds: int('PUBLISH_MIN_SCHEDULE_AHEAD_SECONDS', 0, env),
    },
  };
}
