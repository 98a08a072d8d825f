import type { Knex } from 'knex';
import type Stripe from 'stripe';
import type { IncomingEvent, IncomingRequest, WebhookReceiver, WebhookSource } from '../../platforms/capabilities/webhooks.js';
import { jsonObject } from '../../platforms/json-body.js';
import { timestampedSignatureValid } from '../../platforms/timestamped-signature.js';
import type { Services } from '../../services.js';
import { billingConfigured, providerOf } from './provider.js';
import { syncInvoice } from './invoices.js';
import { syncSubscription } from './subscriptions.js';

/** How far a signature's time may be from now, either way (the provider's own default): a replayed request is refused after it. */
const TOLERANCE_SECONDS = 300;

/**
 * An event of the payment provider about what the service keeps: the subscription or the invoice to bring up
 * to date from the provider (events arrive twice and out of order, so their bodies are never applied as such).
 */
export interface BillingChange {
  kind: 'billing_change';
  subscriptionId?: string;
  /** `paymentFailed` for `invoice.payment_failed`, which the invoice's state alone does not tell. */
  invoice?: { id: string; paymentFailed: boolean };
}

declare module '../../platforms/capabilities/webhooks.js' {
  interface IncomingEventKinds {
    billing_change: BillingChange;
  }
}

/** What the service reads of an event's object. */
interface EventObject {
  id?: unknown;
  subscription?: string | { id?: string } | null;
}

/**
 * `POST /webhooks/billing`: the provider's events, received like a platform's (src/modules/webhooks/receive.ts).
 * `Stripe-Signature: t=<unix>,v1=<hex>[,v1=…]` over `t.rawBody` with the endpoint secret, within the tolerance;
 * each event stored once by its id (the provider sends some twice). Kinds the service does not use are stored
 * and otherwise ignored.
 */
class BillingWebhooks implements WebhookReceiver {
  constructor(
    private readonly webhookSecret: string,
    readonly retryScheduleSeconds: readonly number[],
  ) {}

  async verify(request: IncomingRequest): Promise<WebhookSource | null> {
    const header = request.headers['stripe-signature'];
    const signed = { header, rawBody: request.rawBody, secret: this.webhookSecret, scheme: 'v1', toleranceSeconds: TOLERANCE_SECONDS };
    return timestampedSignatureValid(signed) ? { accountId: null } : null;
  }

  dedupeKey(request: IncomingRequest): string | null {
    const id = jsonObject<{ id?: unknown }>(request.rawBody)?.id;
    return typeof id === 'string' && id !== '' ? `event:${id}` : null;
  }

  parse(rawBody: string): IncomingEvent[] {
    const event = jsonObject<Pick<Stripe.Event, 'type'> & { data?: { object?: EventObject } }>(rawBody);
    const object = event?.data?.object;
    if (!event || typeof object?.id !== 'string') return [];
    const { type } = event;
    if (type === 'checkout.session.completed') {
      const subscription = typeof object.subscription === 'string' ? object.subscription : object.subscription?.id;
      return subscription ? [{ kind: 'billing_change', subscriptionId: subscription }] : [];
    }
    if (type.startsWith('customer.subscription.')) return [{ kind: 'billing_change', subscriptionId: object.id }];
    if (type.startsWith('invoice.')) {
      return [{ kind: 'billing_change', invoice: { id: object.id, paymentFailed: type === 'invoice.payment_failed' } }];
    }
    return [];
  }
}

/**
 * The provider's webhooks, where this instance has billing, retried on the billing schedule: handling one calls
 * the provider, so it is tried again for as long as the provider may be down, not the platforms' few seconds.
 */
export function billingWebhooks(services: Services): WebhookReceiver | null {
  const { billing } = services.config;
  return billingConfigured(services.config) ? new BillingWebhooks(billing.webhookSecret!, billing.webhookRetryScheduleSeconds) : null;
}

/**
 * Brings what the event is about up to date from the provider, in the transaction that marks its webhook
 * processed: a failure changes nothing, and the intake tries it again (on the billing schedule).
 */
export async function applyBillingChange(services: Services, change: BillingChange, trx: Knex.Transaction): Promise<void> {
  const provider = await providerOf(services);
  if (!provider) return;
  if (change.subscriptionId) await syncSubscription(trx, provider, change.subscriptionId);
  if (change.invoice) await syncInvoice(trx, provider, change.invoice.id, { paymentFailed: change.invoice.paymentFailed });
}
