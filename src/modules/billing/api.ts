import type { Knex } from 'knex';
import type { SubscriptionStatus } from '../usage/owner-plan.js';

// What other areas read of the billing area's tables.

/** The plan the owner subscribed to and the state of that subscription, if the owner has a billing account. */
export async function subscription(
  db: Knex,
  ownerId: string,
): Promise<{ plan: string | null; subscriptionStatus: SubscriptionStatus } | undefined> {
  return db('billingAccounts').where({ ownerId }).first('plan', 'subscriptionStatus');
}
