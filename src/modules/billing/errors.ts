import { ApiError } from '../../lib/errors.js';
import { orList } from '../../lib/or-list.js';
import type { Interval, Plan } from '../usage/plans.js';

/** 422 `billing_not_configured`: no plans, or no payment provider (and no sandbox); `detail` names the setting. */
export class BillingNotConfiguredError extends ApiError {
  constructor(missing: 'plans' | 'provider') {
    super(
      422,
      'billing_not_configured',
      'Billing not configured',
      missing === 'plans'
        ? 'This instance sells no plans: its operator turns billing on by setting BILLING_PLANS (or BILLING_PLANS_FILE).'
        : 'This instance has no payment provider: its operator sets STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.',
    );
  }
}

/** 409 `already_subscribed`: the owner's subscription still applies; plans change in the portal. */
export class AlreadySubscribedError extends ApiError {
  constructor(plan: string, status: string) {
    super(
      409,
      'already_subscribed',
      'Already subscribed',
      `The owner has a ${plan} subscription (${status}); change plans in the billing portal.`,
    );
  }
}

/** 422 `plan_unavailable`: no such plan, or no price for the interval; `detail` lists the plans sold at it. */
export class PlanUnavailableError extends ApiError {
  constructor(plan: string, interval: Interval, plans: ReadonlyMap<string, Plan>) {
    const forSale = [...plans.values()].filter((each) => each.prices[interval]).map((each) => each.name);
    super(
      422,
      'plan_unavailable',
      'Plan unavailable',
      `${plans.has(plan) ? `The plan "${plan}" has no ${interval}ly price` : `There is no plan "${plan}"`} on this instance; ` +
        (forSale.length ? `${orList(forSale)} can be bought ${interval}ly.` : `no plan is sold ${interval}ly.`),
    );
  }
}

/** 422 `billing_customer_missing`: the owner never went through checkout. */
export class BillingCustomerMissingError extends ApiError {
  constructor() {
    super(422, 'billing_customer_missing', 'No billing customer', 'Subscribe through POST /billing/checkout first.');
  }
}

/** 409 `invoice_not_cancellable`. */
export class InvoiceNotCancellableError extends ApiError {
  constructor(why: string) {
    super(409, 'invoice_not_cancellable', 'Invoice not cancellable', why);
  }
}

/** 502 `platform_error`: the payment provider failed or could not be reached (after the client's retries). */
export class BillingProviderError extends ApiError {
  constructor(cause: { type?: string; message: string; statusCode?: number }) {
    super(502, 'platform_error', 'Payment provider error', `The payment provider failed: ${cause.message}`.slice(0, 500));
  }
}
