import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import type { Services } from '../../services.js';
import { billingAccount, ensureCustomer, SUBSCRIBED } from './account.js';
import { AlreadySubscribedError, BillingCustomerMissingError, PlanUnavailableError } from './errors.js';
import { provided, readyProvider } from './provider.js';

type CheckoutCreate = components['schemas']['BillingCheckoutCreate'];
type CheckoutSession = components['schemas']['BillingCheckoutSession'];

/** `POST /billing/checkout`: a hosted checkout session for a paid plan at the price its configuration names. */
export async function createCheckout(services: Services, ownerId: string, input: CheckoutCreate): Promise<CheckoutSession> {
  const provider = await readyProvider(services);
  const interval = input.interval ?? 'month';
  const lookupKey = provider.plans.get(input.plan)?.prices[interval];
  if (!lookupKey) throw new PlanUnavailableError(input.plan, interval, provider.plans);
  const account = await billingAccount(services.db, ownerId);
  if (account && SUBSCRIBED.has(account.subscriptionStatus))
    throw new AlreadySubscribedError(account.plan ?? 'paid', account.subscriptionStatus);
  const { stripe } = provider;
  const [price] = (await provided(() => stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 }))).data;
  if (!price) throw new PlanUnavailableError(input.plan, interval, provider.plans);
  const customer = await ensureCustomer(services.db, provider, ownerId);
  const session = await provided(() =>
    stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer,
        line_items: [{ price: price.id, quantity: 1 }],
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
        client_reference_id: ownerId,
        subscription_data: { metadata: { ownerId, plan: input.plan } },
      },
      { idempotencyKey: randomUUID() },
    ),
  );
  return { id: session.id, url: session.url!, expiresAt: new Date(session.expires_at * 1000).toISOString() };
}

/** `POST /billing/portal`: a session of the provider's portal for the owner's customer. */
export async function createPortal(services: Services, ownerId: string, returnUrl: string): Promise<{ url: string }> {
  const provider = await readyProvider(services);
  const customer = (await billingAccount(services.db, ownerId))?.customerId;
  if (!customer) throw new BillingCustomerMissingError();
  const session = await provided(() => provider.stripe.billingPortal.sessions.create({ customer, return_url: returnUrl }));
  return { url: session.url };
}
