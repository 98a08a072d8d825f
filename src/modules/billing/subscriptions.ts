import type { Knex } from 'knex';
import type Stripe from 'stripe';
import type { Plan } from '../usage/plans.js';
import { lockedAccount, ownerOfCustomer } from './account.js';
import type { BillingProvider } from './provider.js';

const idOf = (value: string | { id: string } | null): string | null => (typeof value === 'string' ? value : (value?.id ?? null));
const dateOf = (seconds: number | null | undefined) => (seconds ? new Date(seconds * 1000) : null);

/** The configured plan a price belongs to, by the price's lookup key. */
export function planOfPrice(plans: Map<string, Plan>, lookupKey: string | null | undefined): string | null {
  if (!lookupKey) return null;
  for (const plan of plans.values()) if (Object.values(plan.prices).includes(lookupKey)) return plan.name;
  return null;
}

/**
 * Makes the owner's subscription what the provider says it is now. Events arrive late, twice and out of order,
 * so none is believed about the state: the subscription is fetched, under the owner's lock, and written whole.
 * A subscription created before the one recorded (an old one ending) never replaces it.
 * Answers the owner, or null for a customer that is not ours.
 */
export async function syncSubscription(trx: Knex.Transaction, provider: BillingProvider, subscriptionId: string): Promise<string | null> {
  const peek = await provider.stripe.subscriptions.retrieve(subscriptionId);
  const ownerId = await ownerOfCustomer(trx, idOf(peek.customer)!);
  if (!ownerId) return null;
  const account = await lockedAccount(trx, ownerId);
  // Fetched again under the lock: what another event's processing wrote meanwhile is never older than this.
  const subscription: Stripe.Subscription = await provider.stripe.subscriptions.retrieve(subscriptionId);
  const created = new Date(subscription.created * 1000);
  if (account.subscriptionId !== subscription.id && account.subscriptionCreatedAt && account.subscriptionCreatedAt > created)
    return ownerId;
  const item = subscription.items.data[0];
  await trx('billingAccounts')
    .where({ ownerId })
    .update({
      subscriptionId: subscription.id,
      subscriptionCreatedAt: created,
      plan: planOfPrice(provider.plans, item?.price.lookup_key) ?? account.plan,
      subscriptionStatus: subscription.status,
      currentPeriodStart: dateOf(item?.current_period_start),
      currentPeriodEnd: dateOf(item?.current_period_end),
      cancelAtPeriodEnd: subscription.cancel_at_period_end,
      updatedAt: trx.fn.now(),
    });
  return ownerId;
}
