import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { BillingPeople, DECLINED_CARD } from '../../support/sandbox/billing.js';
import { until } from '../../support/wait.js';
import { usageWhen } from '../usage/support.js';
import { billingHook, billingSettings, checkout } from './support.js';

describeApi('billing — checkout to a paid subscription', { settings: billingSettings() }, (t) => {
  const billing = new BillingPeople(() => t.app);
  const invoices = async () => (await t.app.api.get('/billing/invoices', { token: t.owner.session })).body;

  it('subscribes through the hosted page: the plan and its limits change, the invoice is announced once finalized and once paid', async () => {
    await billingHook(t);
    expect((await t.app.api.get('/usage', { token: t.owner.key })).body).to.include({ plan: 'free', subscriptionStatus: 'none' });

    const session = await checkout(t);
    expect(session.status, JSON.stringify(session.body)).to.equal(201);
    expect(session.body.id).to.match(/^cs_test_/);
    const paid = await billing.pay(session.body.url);
    expect(paid.status).to.equal(302);
    expect(paid.location).to.equal(`https://app.example.com/done?session=${session.body.id}`);

    const usage = await usageWhen(t.app, t.owner.key, (u) => u.plan === 'pro' && u.subscriptionStatus === 'active');
    expect(usage.usage.posts.limit).to.equal(100);
    expect(usage.usage.connectedAccounts.limit).to.equal(10);

    await t.inbox.waitFor(2);
    // Deliveries run side by side: each is found by its status.
    const finalized = t.inbox.events().find((e) => e.data.status === 'open');
    const event = t.inbox.events().find((e) => e.data.status === 'paid');
    expect(event).to.deep.include({ event: 'invoice.status_updated', ownerId: t.owner.ownerId, profileId: '' });
    expect(finalized!.data).to.include({ previousStatus: 'draft', paymentFailed: false });
    expect(event!.data).to.include({
      previousStatus: 'open',
      paymentFailed: false,
      amountDue: 2900,
      amountPaid: 2900,
      currency: 'EUR',
      plan: 'pro',
    });
    expect(event!.data.invoiceId).to.match(/^in_/);

    const list = await until(invoices, {
      done: (page) => page.data.length === 1 && page.data[0].status === 'paid',
      what: 'the paid invoice listed',
    });
    expect(list.data[0]).to.include({ id: event!.data.invoiceId, plan: 'pro', cancellationStatus: null });
    expect(
      t.inbox
        .events()
        .map((e) => e.data.status)
        .sort(),
    ).to.deep.equal(['open', 'paid']);
  });

  it('refuses a second checkout while subscribed, and an API key', async () => {
    const session = await checkout(t);
    await billing.pay(session.body.url);
    await usageWhen(t.app, t.owner.key, (u) => u.subscriptionStatus === 'active');
    const again = await checkout(t);
    expect(again.status).to.equal(409);
    expect(again.body.code).to.equal('already_subscribed');
    const byKey = await t.app.api.post('/billing/portal', { token: t.owner.key, body: { returnUrl: 'https://app.example.com' } });
    expect(byKey.status).to.equal(403);
    expect(byKey.body.code).to.equal('session_required');
  });

  it('keeps the checkout open when the card is declined: nothing changes', async () => {
    const session = await checkout(t);
    const declined = await billing.pay(session.body.url, DECLINED_CARD);
    expect(declined.status).to.equal(402);
    expect(declined.page).to.include('Your card was declined.');
    const usage = (await t.app.api.get('/usage', { token: t.owner.key })).body;
    expect(usage).to.include({ plan: 'free', subscriptionStatus: 'none' });
    const retried = await billing.pay(session.body.url);
    expect(retried.status).to.equal(302);
    await usageWhen(t.app, t.owner.key, (u) => u.plan === 'pro');
  });

  it('refuses a plan without a price for the interval or unknown, naming the plans sold, and the portal before any checkout', async () => {
    const yearly = await checkout(t, 'starter', 'year');
    expect(yearly.status).to.equal(422);
    expect(yearly.body.code).to.equal('plan_unavailable');
    expect(yearly.body.detail).to.equal('The plan "starter" has no yearly price on this instance; pro can be bought yearly.');
    const unknown = await checkout(t, 'gold');
    expect(unknown.body.detail).to.equal('There is no plan "gold" on this instance; starter or pro can be bought monthly.');
    const portal = await t.app.api.post('/billing/portal', { token: t.owner.session, body: { returnUrl: 'https://app.example.com' } });
    expect(portal.status).to.equal(422);
    expect(portal.body.code).to.equal('billing_customer_missing');
  });

  it('creates the customer once when the provider loses the answer: the retry replays it', async () => {
    await billing.failNext(500, { afterWrite: true });
    const session = await checkout(t);
    expect(session.status, JSON.stringify(session.body)).to.equal(201);
    const portal = await t.app.api.post('/billing/portal', {
      token: t.owner.session,
      body: { returnUrl: 'https://app.example.com/billing' },
    });
    expect(portal.status).to.equal(201);
    expect(portal.body.url).to.include('/billing/portal/');
    const customers = await billing.onPlatform(t.owner.email);
    expect(customers).to.have.length(1);
    expect(customers[0]!.metadata).to.deep.equal({ ownerId: t.owner.ownerId });
  });

  it('creates the customer when a lost creation is retried with other parameters (the email changed): a key per parameters', async () => {
    // The creation is made and its answer lost; the retries meet an outage: the checkout fails with no customer kept.
    await billing.failNext(500, { afterWrite: true });
    await billing.failNext(429, { count: 2 });
    expect((await checkout(t)).status).to.equal(502);
    await t.app.services
      .db('owners')
      .where({ id: t.owner.ownerId })
      .update({ email: `new-${t.owner.email}` });
    const session = await checkout(t);
    expect(session.status, JSON.stringify(session.body)).to.equal(201);
    expect(await billing.onPlatform(`new-${t.owner.email}`)).to.have.length(1);
  });

  it('answers 502 when the provider keeps failing, and changes nothing', async () => {
    await billing.failNext(429, { count: 3 });
    const session = await checkout(t);
    expect(session.status).to.equal(502);
    expect(session.body.code).to.equal('platform_error');
  });
});
