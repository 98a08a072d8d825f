import { int, intList, list } from '../../lib/env.js';

export interface WebhookSettings {
  /** Private ranges an operator allows as destinations (CIDR), beside public addresses. */
  allowedCidrs: string[];
  /** Extra trusted CA certificates (PEM file) for destinations with a private CA. */
  caFile: string | undefined;
  timeoutMs: number;
  /** Seconds to wait before each attempt after a failure: attempt n waits schedule[n-1]. */
  retryScheduleSeconds: number[];
  /** A hook whose deliveries all failed for this long is disabled. */
  disableAfterFailingSeconds: number;
  /** How long a claim on a delivery lasts without renewal (renewed while it is sent): how soon after a worker dies another sends it. */
  leaseSeconds: number;
  /** Attempts in flight per worker process. */
  concurrency: number;
  /**
   * Connections kept open to one destination (scheme, host and port), each carrying one request at a time: every
   * new one costs both sides a TLS handshake, so a burst to one endpoint reuses these rather than opening one per
   * attempt in flight (the others wait for one). 0: no limit.
   */
  connectionsPerHost: number;
  testIntervalSeconds: number;
}

const DEFAULT_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

export function webhookSettings(env: NodeJS.ProcessEnv): { webhooks: WebhookSettings } {
  return {
    webhooks: {
      allowedCidrs: list(env.WEBHOOK_ALLOWED_CIDRS),
      caFile: env.WEBHOOK_CA_FILE || undefined,
      timeoutMs: int('WEBHOOK_TIMEOUT_MS', 15_000, env),
      retryScheduleSeconds: intList('WEBHOOK_RETRY_SCHEDULE', DEFAULT_RETRY_SCHEDULE, env),
      disableAfterFailingSeconds: int('WEBHOOK_DISABLE_AFTER_SECONDS', 5 * 24 * 3600, env),
      leaseSeconds: int('WEBHOOK_LEASE_SECONDS', 10, env),
      concurrency: int('WEBHOOK_CONCURRENCY', 200, env),
      connectionsPerHost: int('WEBHOOK_CONNECTIONS_PER_HOST', 50, env),
      testIntervalSeconds: 30,
    },
  };
}
