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
}

export function billingSettings(env: NodeJS.ProcessEnv): { billing: BillingSettings } {
  const secretKey = env.STRIPE_SECRET_KEY || null;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET || null;
  if (secretKey && !webhookSecret)
    throw new Error('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY: without it no subscription change would be believed');
  if (env.STRIPE_API_URL && !/^https?:\/\/[^/]+\/?$/.test(env.STRIPE_API_URL))
    throw new Error(`STRIPE_API_URL must be a scheme and host (https://api.stripe.com), got "${env.STRIPE_API_URL}"`);
  return { billing: { secretKey, webhookSecret, apiUrl: env.STRIPE_API_URL || null, registersEndpoint: false } };
}
