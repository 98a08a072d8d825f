import type Stripe from 'stripe';
import type { Config } from '../../config.js';
import { onePerUntilFailed } from '../../lib/memo.js';
import type { Services } from '../../services.js';
import type { Plan } from '../usage/plans.js';
import { BillingNotConfiguredError, BillingProviderError } from './errors.js';

/** The provider's API version this service speaks (the one the installed client is built for). */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

/** The events the service needs, for the endpoint it registers at the sandbox (operators pick them at Stripe). */
export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.created',
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.voided',
  'invoice.marked_uncollectible',
] as const;

export interface BillingProvider {
  stripe: Stripe;
  webhookSecret: string;
  plans: Map<string, Plan>;
  /** Whether the service registers its own webhook endpoint there (the sandbox's account asks for it). */
  registersEndpoint: boolean;
}

/** The provider's client library, loaded on its first use: loading it cost every start 0.1 s of CPU. */
async function stripeLibrary(): Promise<typeof Stripe> {
  return (await import('stripe')).default;
}

/**
 * Whether billing is configured: plans are required, and a provider — the one configured (`STRIPE_SECRET_KEY`),
 * else the sandbox's where it runs.
 */
export function billingConfigured({ usage: { plans }, billing }: Config): boolean {
  return Boolean(plans && billing.secretKey);
}

/** The payment provider, or null when billing is not configured (`billingConfigured`). */
export const providerOf = onePerUntilFailed((services: Services) => createProvider(services.config));

async function createProvider(config: Config): Promise<BillingProvider | null> {
  if (!billingConfigured(config)) return null;
  const { usage, billing } = config;
  const url = new URL(billing.apiUrl ?? 'https://api.stripe.com');
  const Stripe = await stripeLibrary();
  const stripe = new Stripe(billing.secretKey!, {
    apiVersion: STRIPE_API_VERSION,
    host: url.hostname,
    port: url.port || (url.protocol === 'http:' ? 80 : 443),
    protocol: url.protocol === 'http:' ? 'http' : 'https',
    // Retried writes carry their idempotency key, so a retry after a lost answer never does a write twice.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });
  return { stripe, webhookSecret: billing.webhookSecret!, plans: usage.plans!, registersEndpoint: billing.registersEndpoint };
}

/** This service's webhook endpoint registered once, where the provider asks for it. */
const registration = onePerUntilFailed(async (services: Services) =>
  registerEndpoint((await providerOf(services))!, `${services.config.publicUrl}/webhooks/billing`),
);

/** The provider, ready for a call: where it asks, this service's webhook endpoint is registered first. */
export async function readyProvider(services: Services): Promise<BillingProvider> {
  const provider = await providerOf(services);
  if (!provider) throw new BillingNotConfiguredError(services.config.usage.plans ? 'provider' : 'plans');
  if (provider.registersEndpoint) await registration(services);
  return provider;
}

async function registerEndpoint({ stripe }: BillingProvider, url: string): Promise<void> {
  await provided(async () => {
    for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) if (endpoint.url === url) return;
    await stripe.webhookEndpoints.create({ url, enabled_events: [...HANDLED_EVENTS] });
  });
}

/** A call to the provider; its failures (unreachable, 5xx, 429 after the client's retries) answer 502. */
export async function provided<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof (await stripeLibrary()).errors.StripeError) throw new BillingProviderError(error);
    throw error;
  }
}

/** Whether the provider refused the request itself (a 4xx about it), as opposed to failing to answer. */
export function isRefusal(error: unknown): error is Stripe.errors.StripeError {
  if (!(error instanceof Error)) return false;
  // The library's errors name their class in `type`, its documented way to tell them apart.
  const { type } = error as { type?: unknown };
  return type === 'StripeInvalidRequestError' || type === 'StripeCardError';
}
