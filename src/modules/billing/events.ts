import Stripe from 'stripe';
import type { IncomingRequest } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { NotImplementedError } from '../../lib/errors.js';
import { InvalidSignatureError } from '../webhooks/errors.js';
import { providerOf } from './provider.js';
import { syncInvoice } from './invoices.js';
import { syncSubscription } from './subscriptions.js';

export const PROCESS_EVENT_JOB = 'billing.processEvent';
export const SWEEP_EVENTS_JOB = 'billing.sweepEvents';

/** How old a signature may be (the provider's own default): a replayed request is refused after it. */
const TOLERANCE_SECONDS = 300;

/**
 * `POST /webhooks/billing`: the provider's signature is checked on the raw body within the tolerance, the
 * event is stored once by its id (the provider sends some twice) and processed by a job.
 */
export async function receiveBillingEvent(services: Services, request: IncomingRequest): Promise<{ duplicate: boolean }> {
  const provider = providerOf(services);
  if (!provider) throw new NotImplementedError('billing webhooks on an instance without billing');
  const header = request.headers['stripe-signature'];
  let event: Stripe.Event;
  try {
    event = provider.stripe.webhooks.constructEvent(request.rawBody, String(header ?? ''), provider.webhookSecret, TOLERANCE_SECONDS);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new InvalidSignatureError();
    throw error;
  }
  const stored = (await services
    .db('billingEvents')
    .insert({ id: event.id, type: event.type, body: request.rawBody })
    .onConflict('id')
    .ignore()
    .returning('id')) as unknown[];
  if (stored.length === 0) return { duplicate: true };
  await services.scheduler.now(PROCESS_EVENT_JOB, { id: event.id });
  return { duplicate: false };
}

/**
 * Brings what the event is about up to date from the provider, in one transaction with marking it processed:
 * a failure changes nothing and the event is tried again (by the sweep). Kinds the service does not use are
 * marked processed and otherwise ignored.
 */
export async function processBillingEvent(services: Services, id: string): Promise<void> {
  const provider = providerOf(services);
  if (!provider) return;
  try {
    await services.db.transaction(async (trx) => {
      const row = (await trx('billingEvents').where({ id }).whereNull('processedAt').forUpdate().skipLocked().first('body')) as
        { body: string } | undefined;
      if (!row) return;
      const event = JSON.parse(row.body) as Stripe.Event;
      const object = event.data.object as { id: string; subscription?: string | { id: string } | null };
      if (event.type === 'checkout.session.completed') {
        const subscription = object.subscription;
        if (subscription) await syncSubscription(trx, provider, typeof subscription === 'string' ? subscription : subscription.id);
      } else if (event.type.startsWith('customer.subscription.')) {
        await syncSubscription(trx, provider, object.id);
      } else if (event.type.startsWith('invoice.')) {
        await syncInvoice(trx, provider, object.id, { paymentFailed: event.type === 'invoice.payment_failed' });
      }
      await trx('billingEvents').where({ id }).update({ processedAt: trx.fn.now(), error: null });
    });
  } catch (error) {
    await services
      .db('billingEvents')
      .where({ id })
      .update({ error: (error as Error).message.slice(0, 2000) });
    throw error;
  }
}

/** Events stored but not processed (a failure, or a process that died before its job ran) get another go. */
export async function sweepBillingEvents(services: Services): Promise<void> {
  const stale = (await services
    .db('billingEvents')
    .whereNull('processedAt')
    .where('receivedAt', '<', services.db.raw("now() - interval '30 seconds'"))
    .orderBy('receivedAt')
    .limit(500)
    .select('id')) as Array<{ id: string }>;
  for (const { id } of stale) await services.scheduler.now(PROCESS_EVENT_JOB, { id });
}
