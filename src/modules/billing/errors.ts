import { ApiError } from '../../lib/errors.js';

/** 422 `billing_not_configured`: no plans, or no payment provider (and no sandbox) on this instance. */
export class BillingNotConfiguredError extends ApiError {
  constructor() {
    super(422, 'billing_not_configured', 'Billing not configured', 'This instance has no payment provider configured.');
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

/** 422 `plan_unavailable`: no such plan for sale, or no price for the interval. */
export class PlanUnavailableError extends ApiError {
  constructor(plan: string, interval: string) {
    super(422, 'plan_unavailable', 'Plan unavailable', `The plan "${plan}" has no ${interval}ly price on this instance.`);
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
