import type { Knex } from 'knex';
import type Stripe from 'stripe';
import type { components } from '../../../generated/api.js';
import { decodeKeyset, encodeKeyset } from '../../lib/pagination.js';
import { emitEvent } from '../events/emit.js';
import { lockedAccount, ownerOfCustomer } from './account.js';
import type { BillingProvider } from './provider.js';
import { syncSubscription } from './subscriptions.js';
import type { InvoiceRow } from './rows.js';

type Invoice = components['schemas']['BillingInvoice'];
type InvoiceStatus = Invoice['status'];

/**
 * How far along an invoice is: a later status never gives way to an earlier one. `uncollectible` may still be
 * paid or voided; `paid` and `void` are final.
 */
const RANK: Record<InvoiceStatus, number> = { draft: 0, open: 1, uncollectible: 2, paid: 3, void: 3 };

/**
 * Records the invoice as the provider has it now (fetched, under the owner's lock) and announces each status it
 * went through, and each failed payment attempt, once. The statuses are read from the invoice's own
 * `status_transitions` (when it was finalized, paid, voided, marked uncollectible), in the order they happened,
 * so events that come late, twice or out of order announce the same changes in the same order; a key per
 * (invoice, status) is the guard against announcing one twice. Its subscription is brought up to date first,
 * so the invoice names the plan it bills.
 */
export async function syncInvoice(
  trx: Knex.Transaction,
  provider: BillingProvider,
  invoiceId: string,
  options: { paymentFailed: boolean },
): Promise<void> {
  const { stripe } = provider;
  const peek = await stripe.invoices.retrieve(invoiceId);
  const subscriptionId = peek.parent?.subscription_details?.subscription;
  if (subscriptionId) await syncSubscription(trx, provider, typeof subscriptionId === 'string' ? subscriptionId : subscriptionId.id);
  const customerId = typeof peek.customer === 'string' ? peek.customer : peek.customer?.id;
  const ownerId = customerId ? await ownerOfCustomer(trx, customerId) : null;
  if (!ownerId) return;
  const account = await lockedAccount(trx, ownerId);
  const invoice: Stripe.Invoice = await stripe.invoices.retrieve(invoiceId);
  const stored = (await trx('billingInvoices').where({ id: invoiceId }).forUpdate().first()) as InvoiceRow | undefined;
  const fetched = (invoice.status ?? 'draft') as InvoiceStatus;
  const row: InvoiceRow = {
    id: invoiceId,
    ownerId,
    number: invoice.number,
    status: stored && RANK[stored.status] > RANK[fetched] ? stored.status : fetched,
    amountDue: invoice.amount_due,
    amountPaid: invoice.amount_paid,
    currency: invoice.currency.toUpperCase(),
    plan: stored?.plan ?? account.plan ?? 'free',
    periodStart: new Date(invoice.period_start * 1000),
    periodEnd: new Date(invoice.period_end * 1000),
    hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
    invoicePdfUrl: invoice.invoice_pdf ?? null,
    providerCreatedAt: new Date(invoice.created * 1000),
  };
  await trx('billingInvoices')
    .insert({ ...row, updatedAt: trx.fn.now() })
    .onConflict('id')
    .merge();
  let previous: InvoiceStatus = 'draft';
  for (const status of transitionsOf(invoice)) {
    await announce(trx, row, status, status, previous, false);
    previous = status;
  }
  if (options.paymentFailed && row.status === 'open')
    await announce(trx, row, `payment_failed:${invoice.attempt_count}`, 'open', 'open', true);
}

/** The statuses the invoice went through after its draft, in the order it reached them. */
function transitionsOf(invoice: Stripe.Invoice): InvoiceStatus[] {
  const at = invoice.status_transitions;
  const reached: Array<[InvoiceStatus, number | null]> = [
    ['open', at.finalized_at],
    ['uncollectible', at.marked_uncollectible_at],
    ['paid', at.paid_at],
    ['void', at.voided_at],
  ];
  return reached
    .filter((entry): entry is [InvoiceStatus, number] => entry[1] !== null)
    .sort((a, b) => a[1] - b[1] || RANK[a[0]] - RANK[b[0]])
    .map(([status]) => status);
}

async function announce(
  trx: Knex.Transaction,
  row: InvoiceRow,
  transition: string,
  status: InvoiceStatus,
  previous: InvoiceStatus,
  paymentFailed: boolean,
) {
  const inserted = (await trx('billingInvoiceTransitions')
    .insert({ invoiceId: row.id, transition })
    .onConflict(['invoiceId', 'transition'])
    .ignore()
    .returning('transition')) as unknown[];
  if (inserted.length === 0) return;
  await emitEvent(trx, {
    ownerId: row.ownerId,
    profileId: null,
    name: 'invoice.status_updated',
    data: {
      invoiceId: row.id,
      number: row.number,
      status,
      previousStatus: previous,
      paymentFailed,
      amountDue: row.amountDue,
      amountPaid: row.amountPaid,
      currency: row.currency,
      plan: row.plan,
      periodStart: row.periodStart.toISOString(),
      periodEnd: row.periodEnd.toISOString(),
      hostedInvoiceUrl: row.hostedInvoiceUrl,
      invoicePdfUrl: row.invoicePdfUrl,
    },
  });
}

/** `GET /billing/invoices`: the owner's invoices, newest first, keyset-paged by (created, id). */
export async function listInvoices(
  db: Knex,
  ownerId: string,
  query: { limit?: number; cursor?: string },
): Promise<components['schemas']['BillingInvoiceList']> {
  const limit = query.limit ?? 20;
  const rows = db('billingInvoices as i')
    .where('i.ownerId', ownerId)
    .orderBy([
      { column: 'i.providerCreatedAt', order: 'desc' },
      { column: 'i.id', order: 'desc' },
    ])
    .limit(limit + 1)
    .select(
      'i.*',
      db.raw(
        '(SELECT c.status FROM billing_invoice_cancellations c WHERE c.invoice_id = i.id ORDER BY c.id DESC LIMIT 1) AS cancellation_status',
      ),
    );
  const after = decodeKeyset(query.cursor, ['time', 'providerId']);
  if (after) {
    const [at, id] = after;
    rows.whereRaw('(i.provider_created_at, i.id) < (?::timestamptz, ?)', [at!, id!]);
  }
  const found = (await rows) as Array<InvoiceRow & { cancellationStatus: Invoice['cancellationStatus'] }>;
  const page = found.slice(0, limit);
  return {
    data: page.map((row) => ({
      id: row.id,
      number: row.number,
      status: row.status,
      amountDue: row.amountDue,
      amountPaid: row.amountPaid,
      currency: row.currency,
      plan: row.plan,
      periodStart: row.periodStart.toISOString(),
      periodEnd: row.periodEnd.toISOString(),
      hostedInvoiceUrl: row.hostedInvoiceUrl,
      invoicePdfUrl: row.invoicePdfUrl,
      cancellationStatus: row.cancellationStatus,
      createdAt: row.providerCreatedAt.toISOString(),
    })),
    nextCursor: found.length > limit ? encodeKeyset([page.at(-1)!.providerCreatedAt.toISOString(), page.at(-1)!.id]) : null,
  };
}
