/**
 * The sandbox's payment-provider account, as the service uses it when no real one is configured: its secret key,
 * and the one signing secret it signs every endpoint's events with (as `stripe listen` does for a developer).
 */
export const SANDBOX_BILLING = { secretKey: 'sk_test_socialgate_sandbox', webhookSecret: 'whsec_socialgate_sandbox' } as const;
