import { int } from '../../../lib/env.js';

export interface AdCreativeSettings {
  /** How often a creative's video is looked at while the platform processes it. */
  videoPollMs: number;
  /** How long a video may take to be processed; then its creative fails with `timeout`. */
  videoDeadlineSeconds: number;
  /** How soon after a worker dies another takes its tasks over (a live one renews its claims). */
  leaseSeconds: number;
  /** Tasks looked at once per worker process. */
  concurrency: number;
}

export function adCreativeSettings(env: NodeJS.ProcessEnv): { adCreatives: AdCreativeSettings } {
  return {
    adCreatives: {
      videoPollMs: int('ADS_VIDEO_POLL_MS', 10_000, env),
      videoDeadlineSeconds: int('ADS_VIDEO_DEADLINE_SECONDS', 3600, env),
      leaseSeconds: int('ADS_CREATIVE_LEASE_SECONDS', 60, env),
      concurrency: int('ADS_CREATIVE_CONCURRENCY', 10, env),
    },
  };
}
