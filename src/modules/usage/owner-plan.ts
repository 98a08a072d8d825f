import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { subscription } from '../billing/api.js';
import type { UsageSettings } from './settings.js';
import { type Plan, UNLIMITED } from './plans.js';

export type SubscriptionStatus = components['schemas']['Usage']['subscriptionStatus'];

/** Subscription states in which the subscribed plan applies; in the others the owner is on `free`. */
const PAID_STATES: ReadonlySet<SubscriptionStatus> = new Set(['trialing', 'active', 'past_due']);

export interface OwnerPlan {
  plan: Plan;
  subscriptionStatus: SubscriptionStatus;
}

/** The plan whose limits apply to the owner now, and the state of its subscription. */
export async function ownerPlan(db: Knex, settings: UsageSettings, ownerId: string): Promise<OwnerPlan> {
  const { plans } = settings;
  if (!plans) return { plan: UNLIMITED, subscriptionStatus: 'none' };
  const row = await subscription(db, ownerId);
  const subscriptionStatus = row?.subscriptionStatus ?? 'none';
  const subscribed = row?.plan && PAID_STATES.has(subscriptionStatus) ? plans.get(row.plan) : undefined;
  return { plan: subscribed ?? plans.get('free')!, subscriptionStatus };
}
