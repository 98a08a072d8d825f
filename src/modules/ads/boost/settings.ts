import { int } from '../../../lib/env.js';

export interface AdBoostSettings {
  /** How long `POST /ads/boost` waits for the boost's steps before answering 202 with the boost as it is. */
  answerWithinSeconds: number;
  /** How soon after a worker dies another takes its boosts over (a live one renews its claims). */
  leaseSeconds: number;
  /** Boosts worked on at once per worker process. */
  concurrency: number;
  /** The first wait before a step the platform failed for now is tried again; doubled each time, up to 64 times this. */
  retryMs: number;
}

export function adBoostSettings(env: NodeJS.ProcessEnv): { adBoosts: AdBoostSettings } {
  return {
    adBoosts: {
      answerWithinSeconds: int('ADS_BOOST_ANSWER_WITHIN_SECONDS', 20, env),
      leaseSeconds: int('ADS_BOOST_LEASE_SECONDS', 60, env),
      concurrency: int('ADS_BOOST_CONCURRENCY', 10, env),
      retryMs: int('ADS_BOOST_RETRY_MS', 5_000, env),
    },
  };
}
