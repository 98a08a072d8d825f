import { intList } from '../../lib/env.js';

/**
 * How the provider's events are retried when handling one fails (the provider's API is down: handling calls it):
 * every 30 s for 5 minutes, then backing off to twice a day: 25 retries over about 3.7 days, which outlasts the
 * provider's own redelivery (3 days). Until then no change it announces is lost.
 */
const WEBHOOK_RETRY_SCHEDULE = [
  ...Array<number>(10).fill(30),
  60,
  120,
  300,
  600,
  1800,
  3600,
  7200,
  14400,
  28800,
  ...Array<number>(6).fill(43200),
];

/** The payment provider (Stripe) this instance bills through. */
export interface BillingSettings {
  /** `STRIPE_SECRET_KEY` (`sk_…` or a restricted `rk_…`); null: the sandbox's, when the sandbox runs, else none. */
  secretKey: string | null;
  /** `STRIPE_WEBHOOK_SECRET`: the signing secret of the endpoint `POST /webhooks/billing` (`whsec_…`). */
  webhookSecret: string | null;
  /** `STRIPE_API_URL`: where the provider's API is (default https://api.stripe.com); the sandbox's when it runs. */
  apiUrl: string | null;
  /**
   * Whether the service registers its own endpoint (`POST /webhooks/billing`) with the provider: the sandbox's
   * account asks for it, as `stripe listen` does; at the provider, the operator registers it. Never read from the environment.
   */
  registersEndpoint: boolean;
  /** `BILLING_WEBHOOK_RETRY_SCHEDULE`: seconds before each new attempt at a provider's event whose handling failed. */
  webhookRetryScheduleSeconds: number[];
}

export function billingSettings(env: NodeJS.ProcessEnv): { billing: BillingSettings } {
  const secretKey = env.STRIPE_SECRET_KEY || null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || null;
  if (secretKey && !webhookSecret)
    throw new Error('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY: without it no subscription change would be believed');
  if (env.STRIPE_API_URL && !/^https?:\/\/[^/]+\/?$/.test(env.STRIPE_API_URL))
    throw new Error(`STRIPE_API_URL must be a scheme and host (https://api.stripe.com), got "${env.STRIPE_API_URL}"`);
  const webhookRetryScheduleSeconds = intList('BILLING_WEBHOOK_RETRY_SCHEDULE', WEBHOOK_RETRY_SCHEDULE, env);
  return {
    billing: { secretKey, webhookSecret, apiUrl: env.STRIPE_API_URL || null, registersEndpoint: false, webhookRetryScheduleSeconds },
  };
}
