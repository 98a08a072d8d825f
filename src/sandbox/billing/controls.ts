import type Router from '@koa/router';
import type { Context } from 'koa';
import type { SandboxStripeAccount } from './account.js';
import { type FormBody, StripeRefusal } from './objects.js';
import type { ApiFault } from './api.js';
import { priceObject } from './catalogue.js';
import type { Signing } from '../timestamped-signature.js';
import type { EventDelivery } from './delivery.js';
import { closed, type ControlBodies, integer, NO_BODY, oneOf, text } from '../control-schema.js';

const escape = (text: unknown) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * The people's controls (`/_sandbox/billing/...`): the test clock, payment methods, the faults of the API and of
 * event delivery, and an overview page linking the customers' portals and open checkouts.
 */
export function mountControls(
  router: Router,
  account: SandboxStripeAccount,
  delivery: EventDelivery,
  faults: ApiFault[],
  changed: () => void,
): void {
  const control = (run: (body: FormBody, ctx: Context) => unknown) => async (ctx: Context) => {
    try {
      ctx.body = (await run((ctx.request.body ?? {}) as FormBody, ctx)) ?? { ok: true };
      changed();
    } catch (error) {
      if (!(error instanceof StripeRefusal)) throw error;
      ctx.status = error.status;
      ctx.body = { error: { type: error.type, code: error.code, message: error.message } };
    }
  };

  router.get('/_sandbox/billing', (ctx) => {
    const rows = [...account.state.customers.values()].map((customer) => {
      const subscriptions = account
        .subscriptionsOf(customer.id)
        .map((subscription) => `${escape(subscription.id)} (${escape(subscription.status)})`);
      const open = [...account.state.sessions.values()].filter((session) => session.customer === customer.id && session.status === 'open');
      return `<li>${escape(customer.email)} — ${subscriptions.join(', ') || 'no subscription'} ${open
        .map((session) => `<a href="${escape(session.url)}">checkout ${escape(session.id)}</a>`)
        .join(' ')}</li>`;
    });
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = `<!doctype html><meta charset="utf-8"><title>Sandbox billing</title><h1>Sandbox billing (Stripe protocol)</h1>
<p>Start a checkout with POST /billing/checkout on the service; open checkouts are linked here.</p><ul>${rows.join('')}</ul>`;
  });
  /** The test clock moves to the end of the subscription's period: it renews (or ends when cancelled at the period's end). */
  router.post(
    '/_sandbox/billing/clock/advance',
    control((body) => account.advanceToRenewal(String(body.subscription))),
  );
  /** The customer's card from now on (`4000000000000002` is declined); `retry` pays the open invoices again. */
  router.post(
    '/_sandbox/billing/card',
    control((body) => {
      account.setCard(String(body.customer), String(body.card));
      if (body.retry) for (const subscription of account.subscriptionsOf(String(body.customer))) account.retryOpenInvoices(subscription.id);
    }),
  );
  /** The next API calls answer these statuses (`afterWrite`: the write is done, its answer lost). */
  router.post(
    '/_sandbox/billing/fail',
    control((body) => {
      const count = Number(body.count ?? 1);
      for (let i = 0; i < count; i += 1) faults.push({ status: body.status === 429 ? 429 : 500, afterWrite: Boolean(body.afterWrite) });
    }),
  );
  /** The API answers again, as at the end of an outage: the faults not met yet are dropped. */
  router.post(
    '/_sandbox/billing/recover',
    control(() => void faults.splice(0)),
  );
  /** How the next batch of events is delivered: `duplicate` (each twice), `reverse` (last first). */
  router.post(
    '/_sandbox/billing/delivery',
    control((body) => delivery.setNext({ duplicate: Boolean(body.duplicate), reverse: Boolean(body.reverse) })),
  );
  /** The customers with this email, with their subscriptions. */
  router.get('/_sandbox/billing/customers', (ctx) => {
    ctx.body = [...account.state.customers.values()]
      .filter((customer) => customer.email === ctx.query.email)
      .map((customer) => ({ ...customer, subscriptions: account.subscriptionsOf(customer.id) }));
  });
  /** What each delivery attempt got, and the events. */
  router.get('/_sandbox/billing/deliveries', (ctx) => {
    ctx.body = delivery.log;
  });
  /** Sends an event again, signed as asked (`valid`, `mismatch`, `stale`, `future`); answers what the endpoint said. */
  router.post(
    '/_sandbox/billing/events/:id/resend',
    control(async (body, ctx) => {
      const event = delivery.event(String(ctx.params.id));
      if (!event) throw new StripeRefusal(404, 'invalid_request_error', `No such event: ${String(ctx.params.id)}`);
      const statuses = [];
      for (const endpoint of account.state.endpoints.values())
        statuses.push(await delivery.send(String(endpoint.url), event, (body.signing ?? 'valid') as Signing));
      return { statuses };
    }),
  );
  /** A price for sale (lookup key, amount in minor units, interval), beside the demo catalogue. */
  router.post(
    '/_sandbox/billing/prices',
    control((body) => {
      const price = priceObject(
        String(body.lookup_key),
        {
          unitAmount: Number(body.unit_amount ?? 1000),
          interval: body.interval === 'year' ? 'year' : 'month',
          currency: String(body.currency ?? 'eur'),
          nickname: String(body.nickname ?? body.lookup_key),
        },
        account.now(),
      );
      account.state.prices.set(price.id, price);
      return price;
    }),
  );
}

/** The bodies of the controls above. */
export const BILLING_CONTROLS: ControlBodies = {
  'POST /_sandbox/billing/clock/advance': closed({ subscription: text('the subscription whose period ends') }, ['subscription'], {
    subscription: 'sub_…',
  }),
  'POST /_sandbox/billing/card': closed(
    {
      customer: text('the customer'),
      card: { type: 'string', pattern: '^[0-9 ]{12,23}$', description: 'its number (4000 0000 0000 0002 is declined)' },
      retry: { type: 'boolean', description: 'pay the open invoices again with it' },
    },
    ['customer', 'card'],
    { customer: 'cus_…', card: '4242424242424242', retry: true },
  ),
  'POST /_sandbox/billing/fail': closed(
    {
      status: { enum: [429, 500] },
      count: integer('how many calls (1 by default)', 1),
      afterWrite: { type: 'boolean', description: 'the write is done, its answer lost' },
    },
    ['status'],
    { status: 500, count: 1, afterWrite: true },
  ),
  'POST /_sandbox/billing/recover': NO_BODY,
  'POST /_sandbox/billing/delivery': closed(
    { duplicate: { type: 'boolean', description: 'each event twice' }, reverse: { type: 'boolean', description: 'last first' } },
    [],
    { duplicate: true },
  ),
  'POST /_sandbox/billing/events/:id/resend': closed({ signing: oneOf(['valid', 'mismatch', 'stale', 'future']) }, [], {
    signing: 'stale',
  }),
  'POST /_sandbox/billing/prices': closed(
    {
      lookup_key: text('the key the service names the price by'),
      unit_amount: integer('in minor units (1000 by default)'),
      interval: oneOf(['month', 'year']),
      currency: { type: 'string', pattern: '^[a-z]{3}$' },
      nickname: text('its name'),
    },
    ['lookup_key'],
    { lookup_key: 'team_monthly', unit_amount: 4900, interval: 'month', currency: 'eur' },
  ),
};
