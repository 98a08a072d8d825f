import { expect } from 'chai';
import { SANDBOX_BILLING } from '../../../src/sandbox/billing/defaults.js';
import { timestampedSignature } from '../../../src/sandbox/timestamped-signature.js';
import { describeApi } from '../../support/harness.js';
import { BillingPeople, DECLINED_CARD } from '../../support/sandbox/billing.js';
import { until } from '../../support/wait.js';
import { usageWhen } from '../usage/support.js';
import { billingHook, billingSettings, checkout, settled } from './support.js';

describeApi('billing — the provider events', { settings: billingSettings() }, (t) => {
  const billing = new BillingPeople(() => t.app);

  async function subscribed(delivery: { duplicate?: boolean; reverse?: boolean } = {}) {
    const session = await checkout(t);
    await billing.configure(delivery);
    await billing.pay(session.body.url);
    await usageWhen(t.app, t.owner.key, (u) => u.subscriptionStatus === 'active');
    const [customer] = await billing.onPlatform(t.owner.email);
    return { customer: customer!.id, subscription: customer!.subscriptions[0].id as string };
  }

  // Deliveries run side by side: the changes are compared by invoice, in the order of their statuses.
  const statuses = () => {
    const order = ['draft', 'open', 'open (failed)', 'uncollectible', 'paid', 'void'];
    const changes = t.inbox
      .events()
      .filter((e) => e.event === 'invoice.status_updated')
      .map((e) => ({ period: e.data.periodStart as string, status: `${e.data.status}${e.data.paymentFailed ? ' (failed)' : ''}` }));
    changes.sort((a, b) => a.period.localeCompare(b.period) || order.indexOf(a.status) - order.indexOf(b.status));
    return changes.map((change) => change.status);
  };

  it('takes events delivered twice and last first as they are now: nothing regresses, each change is announced once', async () => {
    await billingHook(t);
    await subscribed({ duplicate: true, reverse: true });
    await t.inbox.waitFor(2);
    const deliveries = await until(billing.deliveries.bind(billing), {
      done: (log) => log.filter((d) => d.type === 'customer.subscription.created' && d.status === 200).length === 2,
      what: 'the whole batch delivered twice',
    });
    const order = deliveries.map((d) => d.type);
    expect(order.filter((type) => type === 'checkout.session.completed')).to.have.length(2);
    expect(order.indexOf('invoice.paid')).to.be.below(order.indexOf('customer.subscription.created'));
    await until(async () => (await t.app.api.get('/billing/invoices', { token: t.owner.session })).body.data[0]?.status, {
      done: (status) => status === 'paid',
    });
    await settled(t, billing);
    expect(statuses()).to.deep.equal(['open', 'paid']);
  });

  it('renews on the test clock; a declined card makes the subscription past due and announces the failed payment', async () => {
    await billingHook(t);
    const { customer, subscription } = await subscribed();
    await t.inbox.waitFor(2);
    await billing.setCard(customer, DECLINED_CARD);
    await billing.renew(subscription);
    await usageWhen(t.app, t.owner.key, (u) => u.subscriptionStatus === 'past_due' && u.plan === 'pro');
    await t.inbox.waitFor(4);
    await settled(t, billing);
    expect(statuses()).to.deep.equal(['open', 'paid', 'open', 'open (failed)']);
    await billing.setCard(customer, '4242424242424242', true);
    await usageWhen(t.app, t.owner.key, (u) => u.subscriptionStatus === 'active');
    await t.inbox.waitFor(5);
    await settled(t, billing);
    expect(statuses()).to.deep.equal(['open', 'paid', 'open', 'open (failed)', 'paid']);
    const invoices = (await t.app.api.get('/billing/invoices', { token: t.owner.session })).body.data;
    expect(invoices.map((invoice: { status: string }) => invoice.status)).to.deep.equal(['paid', 'paid']);
  });

  it('follows a cancellation in the portal: free limits when the subscription ends', async () => {
    const { subscription } = await subscribed();
    const portal = await t.app.api.post('/billing/portal', { token: t.owner.session, body: { returnUrl: 'https://app.example.com' } });
    expect(portal.status).to.equal(201);
    await billing.inPortal(portal.body.url, subscription, { price: 'price_starter_monthly' });
    const starter = await usageWhen(t.app, t.owner.key, (u) => u.plan === 'starter');
    expect(starter.usage.connectedAccounts.limit).to.equal(3);
    await billing.inPortal(portal.body.url, subscription, 'now');
    const free = await usageWhen(t.app, t.owner.key, (u) => u.subscriptionStatus === 'canceled');
    expect(free.plan).to.equal('free');
    expect(free.usage.posts.limit).to.equal(2);
  });

  it('refuses an event with a signature that does not match, or dated beyond the tolerance either way; takes it again when well signed', async () => {
    await subscribed();
    const [delivered] = await billing.deliveries();
    expect(await billing.resend(delivered!.eventId, 'mismatch')).to.deep.equal([401]);
    expect(await billing.resend(delivered!.eventId, 'stale')).to.deep.equal([401]);
    expect(await billing.resend(delivered!.eventId, 'future')).to.deep.equal([401]);
    expect(await billing.resend(delivered!.eventId, 'valid')).to.deep.equal([200]);
    const unsigned = await fetch(`${t.app.url}/webhooks/billing`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(unsigned.status).to.equal(401);
  });

  it('answers 400 webhook_payload_invalid to a well-signed invoice.paid without an id, or with a NUL in it, and stores nothing', async () => {
    const invoice = { id: 'in_1QxYz1AbCdEfGhIj', object: 'invoice', status: 'paid' };
    const malformed = [
      { object: 'event', type: 'invoice.paid', created: 1763805600, data: { object: invoice } },
      { id: 'evt_\u0000paid', object: 'event', type: 'invoice.paid', created: 1763805600, data: { object: invoice } },
    ];
    const stored = () => t.app.services.db('platformWebhooks').where({ platform: 'billing' }).count({ n: '*' });
    const before = await stored();
    for (const event of malformed) {
      const rawBody = JSON.stringify(event);
      const response = await t.app.api.post('/webhooks/billing', {
        rawBody,
        headers: {
          'Content-Type': 'application/json',
          'Stripe-Signature': timestampedSignature(rawBody, SANDBOX_BILLING.webhookSecret, 'v1'),
        },
      });
      expect(response.status, rawBody).to.equal(400);
      expect(response.body.code).to.equal('webhook_payload_invalid');
    }
    expect(await stored()).to.deep.equal(before);
  });
});
