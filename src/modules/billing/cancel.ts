import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { NotFoundError } from '../../lib/errors.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Services } from '../../services.js';
import { emitEvent } from '../events/emit.js';
import { InvoiceNotCancellableError } from './errors.js';
import type { InvoiceRow } from './rows.js';
import { isRefusal, provided, readyProvider } from './provider.js';

type Cancellation = components['schemas']['BillingInvoiceCancellation'];
type CancellationStatus = Cancellation['cancellationStatus'];

/**
 * `POST /billing/invoices/{id}/cancel`: an open invoice is voided, a paid one credited in full and refunded.
 * `requested` is recorded and announced, the provider asked, and its answer makes it `accepted` or `rejected`
 * (announced too) — all in one transaction: when the provider cannot be reached, nothing happened and nothing
 * was announced. The provider's idempotency key is the cancellation's, so the client's retries do it once.
 */
export async function cancelInvoice(services: Services, ownerId: string, invoiceId: string, reason: string | null): Promise<Cancellation> {
  const { stripe } = await readyProvider(services);
  return services.db.transaction(async (trx) => {
    const invoice = (await trx('billingInvoices').where({ id: invoiceId, ownerId }).forUpdate().first()) as InvoiceRow | undefined;
    if (!invoice) throw new NotFoundError('invoice');
    if (invoice.status !== 'open' && invoice.status !== 'paid')
      throw new InvoiceNotCancellableError(`The invoice is ${invoice.status}; only open and paid invoices can be cancelled.`);
    const method = invoice.status === 'open' ? 'void' : 'credit_note';
    const cancellation: Cancellation = {
      invoiceId,
      cancellationStatus: 'requested',
      method,
      reason,
      amount: method === 'void' ? invoice.amountDue : invoice.amountPaid,
      currency: invoice.currency,
    };
    const id = await recordRequest(trx, cancellation);
    await announce(trx, ownerId, cancellation, null);
    const idempotencyKey = `socialgate-invoice-cancellation-${id}`;
    let refusal: string | null = null;
    await provided(async () => {
      try {
        if (method === 'void') await stripe.invoices.voidInvoice(invoiceId, {}, { idempotencyKey });
        else
          await stripe.creditNotes.create(
            { invoice: invoiceId, amount: cancellation.amount, refund_amount: cancellation.amount, ...(reason ? { memo: reason } : {}) },
            { idempotencyKey },
          );
      } catch (error) {
        if (!isRefusal(error)) throw error;
        refusal = error.message;
      }
    });
    const answered: Cancellation = {
      ...cancellation,
      cancellationStatus: refusal === null ? 'accepted' : 'rejected',
      reason: refusal ?? reason,
    };
    await trx('billingInvoiceCancellations')
      .where({ id })
      .update({ status: answered.cancellationStatus, reason: answered.reason, updatedAt: trx.fn.now() });
    await announce(trx, ownerId, answered, 'requested');
    return answered;
  });
}

async function recordRequest(trx: Knex.Transaction, cancellation: Cancellation): Promise<string> {
  try {
    const [row] = (await trx('billingInvoiceCancellations')
      .insert({
        invoiceId: cancellation.invoiceId,
        status: cancellation.cancellationStatus,
        method: cancellation.method,
        reason: cancellation.reason,
        amount: cancellation.amount,
        currency: cancellation.currency,
      })
      .returning('id')) as Array<{ id: string }>;
    return String(row!.id);
  } catch (error) {
    if (isUniqueViolation(error)) throw new InvoiceNotCancellableError('A cancellation of this invoice is under way or done already.');
    throw error;
  }
}

async function announce(trx: Knex.Transaction, ownerId: string, cancellation: Cancellation, previous: CancellationStatus | null) {
  await emitEvent(trx, {
    ownerId,
    profileId: null,
    name: 'invoice.cancellation_status_updated',
    data: { ...cancellation, previousCancellationStatus: previous as 'requested' | null },
  });
}
