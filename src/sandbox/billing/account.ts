import { randomBytes } from 'node:crypto';
import { demoPrices } from './catalogue.js';
import { type AccountState, DECLINED_CARD, type FormBody, type Obj, type StripeEvent, StripeRefusal } from './objects.js';

const MONTH = 30 * 24 * 3600;
const YEAR = 365 * 24 * 3600;

/**
 * The provider's account in the sandbox: its objects and the subscription and invoice state machines. Every
 * change queues the events it produces (`drainEvents`), for delivery once the request that made it is answered.
 */
export class SandboxStripeAccount {
  readonly state: AccountState;
  private pending: StripeEvent[] = [];

  constructor(
    restored: AccountState | undefined,
    private readonly baseUrl: string,
  ) {
    this.state = restored ?? {
      seq: 0,
      clockOffset: 0,
      customers: new Map(),
      prices: demoPrices(),
      sessions: new Map(),
      portals: new Map(),
      subscriptions: new Map(),
      invoices: new Map(),
      creditNotes: new Map(),
      endpoints: new Map(),
      cards: new Map(),
    };
  }

  now(): number {
    return Math.floor(Date.now() / 1000) + this.state.clockOffset;
  }

  id(prefix: string): string {
    this.state.seq += 1;
    return `${prefix}_${this.state.seq.toString(36).padStart(6, '0')}${randomBytes(6).toString('hex')}`;
  }

  drainEvents(): StripeEvent[] {
    const events = this.pending;
    this.pending = [];
    return events;
  }

  private emit(type: string, object: Obj): void {
    this.pending.push({
      id: this.id('evt'),
      object: 'event',
      type,
      created: this.now(),
      api_version: '2026-10-28.endive',
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: structuredClone(object) },
    });
  }

  /** The object, or the provider's 404 naming `param`: the path's `id`, or the body's parameter that named it. */
  find(kind: keyof AccountState, id: string, what: string, param = 'id'): Obj {
    const found = (this.state[kind] as Map<string, Obj>).get(id);
    if (!found) throw new StripeRefusal(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', param);
    return found;
  }

  createCustomer(params: { email?: string; metadata?: Record<string, string> }): Obj {
    const customer = {
      id: this.id('cus'),
      object: 'customer',
      email: params.email ?? null,
      metadata: params.metadata ?? {},
      created: this.now(),
      livemode: false,
    };
    this.state.customers.set(customer.id, customer);
    this.emit('customer.created', customer);
    return customer;
  }

  /** The customer's email, name or metadata changed (metadata merged, as the provider does). */
  updateCustomer(id: string, params: { email?: string; name?: string; metadata?: Record<string, string> }): Obj {
    const customer = this.find('customers', id, 'customer');
    if (params.email !== undefined) customer.email = params.email;
    if (params.name !== undefined) customer.name = params.name;
    if (params.metadata) customer.metadata = { ...(customer.metadata as Record<string, string>), ...params.metadata };
    this.emit('customer.updated', customer);
    return customer;
  }

  /** A hosted payment page for a subscription, or (`mode=payment`) for one payment. */
  createCheckoutSession(params: FormBody): Obj {
    if (params.mode !== 'subscription' && params.mode !== 'payment')
      throw new StripeRefusal(
        400,
        'invalid_request_error',
        'Invalid mode: must be one of payment or subscription',
        'parameter_invalid',
        'mode',
      );
    const customer = this.find('customers', String(params.customer), 'customer', 'customer');
    const line = ((params.line_items ?? []) as Array<{ price?: string }>)[0];
    const price = this.find('prices', String(line?.price), 'price', 'line_items[0][price]');
    const id = this.id('cs_test');
    const session = {
      id,
      object: 'checkout.session',
      mode: params.mode,
      payment_intent: null,
      status: 'open',
      payment_status: 'unpaid',
      customer: customer.id,
      client_reference_id: params.client_reference_id ?? null,
      success_url: params.success_url,
      cancel_url: params.cancel_url,
      url: `${this.baseUrl}/billing/pay/${id}`,
      expires_at: this.now() + 24 * 3600,
      created: this.now(),
      subscription: null,
      metadata: params.metadata ?? {},
      automatic_tax: { enabled: false, status: null },
      payment_method_types: ['card'],
      shipping_options: [],
      line_items_price: price.id,
      subscription_metadata: (params.subscription_data as FormBody | undefined)?.metadata ?? {},
      livemode: false,
    };
    this.state.sessions.set(id, session);
    return session;
  }

  /** The customer pays on the hosted page: a declined card leaves the session open; else the subscription starts. */
  pay(sessionId: string, card: string): Obj {
    const session = this.find('sessions', sessionId, 'checkout session');
    if (session.status !== 'open' || (session.expires_at as number) < this.now())
      throw new StripeRefusal(400, 'invalid_request_error', 'This checkout session is no longer open.', 'checkout_session_expired');
    if (card.replace(/\s/g, '') === DECLINED_CARD) throw new StripeRefusal(402, 'card_error', 'Your card was declined.', 'card_declined');
    const customer = String(session.customer);
    this.state.cards.set(customer, card.replace(/\s/g, ''));
    if (session.mode === 'payment') {
      Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: this.id('pi') });
      this.emit('checkout.session.completed', session);
      return session;
    }
    const price = this.find('prices', String(session.line_items_price), 'price');
    const subscription = this.startSubscription(customer, price, session.subscription_metadata as Record<string, string>);
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: subscription.id });
    this.emit('checkout.session.completed', session);
    return session;
  }

  private startSubscription(customer: string, price: Obj, metadata: Record<string, string>): Obj {
    const now = this.now();
    const subscription: Obj = {
      id: this.id('sub'),
      object: 'subscription',
      customer,
      status: 'active',
      created: now,
      start_date: now,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      metadata,
      latest_invoice: null,
      livemode: false,
      items: { object: 'list', has_more: false, data: [] },
    };
    this.setItem(subscription, price, now);
    this.state.subscriptions.set(subscription.id, subscription);
    this.emit('customer.subscription.created', subscription);
    this.invoice(subscription, 'subscription_create');
    return subscription;
  }

  private setItem(subscription: Obj, price: Obj, start: number): void {
    const interval = (price.recurring as { interval: string }).interval;
    (subscription.items as { data: Obj[] }).data = [
      {
        id: this.id('si'),
        object: 'subscription_item',
        price,
        quantity: 1,
        subscription: subscription.id,
        current_period_start: start,
        current_period_end: start + (interval === 'year' ? YEAR : MONTH),
      },
    ];
  }

  private itemOf(subscription: Obj): Obj & { price: Obj; current_period_start: number; current_period_end: number } {
    return (subscription.items as { data: Array<Obj & { price: Obj; current_period_start: number; current_period_end: number }> }).data[0]!;
  }

  /** An invoice for the subscription's current period: created, finalized, then paid with the card or failed. */
  private invoice(subscription: Obj, reason: string): Obj {
    const item = this.itemOf(subscription);
    const amount = item.price.unit_amount as number;
    const number = `SBX-${(this.state.invoices.size + 1).toString().padStart(4, '0')}`;
    const id = this.id('in');
    const invoice: Obj = {
      id,
      object: 'invoice',
      customer: subscription.customer,
      status: 'draft',
      number: null,
      amount_due: amount,
      amount_paid: 0,
      amount_remaining: amount,
      attempt_count: 0,
      billing_reason: reason,
      currency: item.price.currency,
      created: this.now(),
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      hosted_invoice_url: null,
      invoice_pdf: null,
      status_transitions: { finalized_at: null, paid_at: null, voided_at: null, marked_uncollectible_at: null },
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: subscription.metadata },
      },
      livemode: false,
    };
    this.state.invoices.set(id, invoice);
    subscription.latest_invoice = id;
    this.emit('invoice.created', invoice);
    this.transition(invoice, 'finalized_at');
    Object.assign(invoice, {
      status: 'open',
      number,
      hosted_invoice_url: `${this.baseUrl}/billing/invoices/${id}`,
      invoice_pdf: `${this.baseUrl}/billing/invoices/${id}/pdf`,
    });
    this.emit('invoice.finalized', invoice);
    this.attemptPayment(subscription, invoice);
    return invoice;
  }

  private attemptPayment(subscription: Obj, invoice: Obj): void {
    invoice.attempt_count = (invoice.attempt_count as number) + 1;
    if (this.state.cards.get(String(subscription.customer)) === DECLINED_CARD) {
      this.emit('invoice.payment_failed', invoice);
      if (subscription.status !== 'past_due') {
        subscription.status = 'past_due';
        this.emit('customer.subscription.updated', subscription);
      }
      return;
    }
    this.transition(invoice, 'paid_at');
    Object.assign(invoice, { status: 'paid', amount_paid: invoice.amount_due, amount_remaining: 0 });
    this.emit('invoice.paid', invoice);
    if (subscription.status !== 'active') {
      subscription.status = 'active';
      this.emit('customer.subscription.updated', subscription);
    }
  }

  /**
   * The test clock moves to the end of the subscription's period: a subscription cancelled at the period's end
   * ends; the others renew, with an invoice paid by the customer's card (or failing, with a declined card).
   */
  advanceToRenewal(subscriptionId: string): Obj {
    const subscription = this.find('subscriptions', subscriptionId, 'subscription');
    if (subscription.status === 'canceled') throw new StripeRefusal(400, 'invalid_request_error', 'The subscription has ended.');
    const item = this.itemOf(subscription);
    this.state.clockOffset += Math.max(0, item.current_period_end - this.now());
    if (subscription.cancel_at_period_end) return this.endSubscription(subscription);
    this.setItem(subscription, item.price, item.current_period_end);
    this.emit('customer.subscription.updated', subscription);
    this.invoice(subscription, 'subscription_cycle');
    return subscription;
  }

  /** A payment method that works now: the open invoices of the customer's subscriptions are paid again. */
  setCard(customerId: string, card: string): void {
    this.find('customers', customerId, 'customer');
    this.state.cards.set(customerId, card.replace(/\s/g, ''));
  }

  retryOpenInvoices(subscriptionId: string): void {
    const subscription = this.find('subscriptions', subscriptionId, 'subscription');
    for (const invoice of this.state.invoices.values())
      if (
        invoice.status === 'open' &&
        (invoice.parent as { subscription_details: { subscription: string } }).subscription_details.subscription === subscription.id
      )
        this.attemptPayment(subscription, invoice);
  }

  /** In the portal: cancel at the period's end (or now), or take it back. */
  cancelSubscription(subscriptionId: string, when: 'period_end' | 'now' | 'undo'): Obj {
    const subscription = this.find('subscriptions', subscriptionId, 'subscription');
    if (when === 'now') return this.endSubscription(subscription);
    subscription.cancel_at_period_end = when === 'period_end';
    this.emit('customer.subscription.updated', subscription);
    return subscription;
  }

  private endSubscription(subscription: Obj): Obj {
    Object.assign(subscription, { status: 'canceled', canceled_at: this.now(), ended_at: this.now(), cancel_at_period_end: false });
    this.emit('customer.subscription.deleted', subscription);
    return subscription;
  }

  /** In the portal: another price (plan or interval), from now on. */
  switchPrice(subscriptionId: string, priceId: string): Obj {
    const subscription = this.find('subscriptions', subscriptionId, 'subscription');
    const price = this.find('prices', priceId, 'price');
    this.setItem(subscription, price, this.itemOf(subscription).current_period_start);
    this.emit('customer.subscription.updated', subscription);
    return subscription;
  }

  private transition(invoice: Obj, when: 'finalized_at' | 'paid_at' | 'voided_at'): void {
    (invoice.status_transitions as Record<string, number | null>)[when] = this.now();
  }

  voidInvoice(invoiceId: string): Obj {
    const invoice = this.find('invoices', invoiceId, 'invoice');
    if (invoice.status !== 'open' && invoice.status !== 'uncollectible')
      throw new StripeRefusal(
        400,
        'invalid_request_error',
        `You can only void an open or uncollectible invoice; this one is ${String(invoice.status)}.`,
        'invoice_not_open',
      );
    invoice.status = 'void';
    this.transition(invoice, 'voided_at');
    this.emit('invoice.voided', invoice);
    this.emit('invoice.updated', invoice);
    return invoice;
  }

  createCreditNote(params: { invoice?: string; amount?: string; refund_amount?: string; memo?: string }): Obj {
    const invoice = this.find('invoices', String(params.invoice), 'invoice');
    if (invoice.status !== 'paid' && invoice.status !== 'open')
      throw new StripeRefusal(
        400,
        'invalid_request_error',
        'Credit notes can only be issued for open or paid invoices.',
        'invoice_not_finalized',
      );
    const credited = [...this.state.creditNotes.values()]
      .filter((note) => note.invoice === invoice.id)
      .reduce((sum, note) => sum + (note.amount as number), 0);
    const amount = Number(params.amount ?? params.refund_amount ?? 0);
    if (amount <= 0 || credited + amount > (invoice.amount_paid as number) + (invoice.amount_remaining as number))
      throw new StripeRefusal(
        400,
        'invalid_request_error',
        'The credit note amount exceeds what is left to credit on the invoice.',
        'credit_note_amount_exceeded',
      );
    const note: Obj = {
      id: this.id('cn'),
      object: 'credit_note',
      invoice: invoice.id,
      customer: invoice.customer,
      amount,
      refunds: params.refund_amount ? [{ amount_refunded: Number(params.refund_amount), refund: this.id('re') }] : [],
      currency: invoice.currency,
      memo: params.memo ?? null,
      status: 'issued',
      type: invoice.status === 'paid' ? 'post_payment' : 'pre_payment',
      created: this.now(),
      livemode: false,
    };
    this.state.creditNotes.set(note.id, note);
    this.emit('credit_note.created', note);
    return note;
  }

  createPortalSession(params: { customer?: string; return_url?: string }): Obj {
    const customer = this.find('customers', String(params.customer), 'customer');
    const id = this.id('bps');
    const session = {
      id,
      object: 'billing_portal.session',
      configuration: 'bpc_sandbox_default',
      customer: customer.id,
      return_url: params.return_url ?? null,
      url: `${this.baseUrl}/billing/portal/${id}`,
      created: this.now(),
      livemode: false,
    };
    this.state.portals.set(id, session);
    return session;
  }

  subscriptionsOf(customerId: string): Obj[] {
    return [...this.state.subscriptions.values()].filter((subscription) => subscription.customer === customerId);
  }
}
