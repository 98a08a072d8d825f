import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { BillingPeople, DECLINED_CARD } from '../../support/sandbox/billing.js';
import { until } from '../../support/wait.js';
import { usageWhen } from '../usage/support.js';
import { billingHook, billingSettings, checkout, settled } from './support.js';

describeApi('billing — cancelling an invoice', { settings: billingSettings() }, (t) => {
  const billing = new BillingPeople(() => t.app);
  const listed = async () => (await t.app.api.get('/billing/invoices', { token: t.owner.session })).body.data as any[];
  const cancellations = () => t.inbox.events().filter((e) => e.event === 'invoice.cancellation_status_updated');
  const cancel = (invoiceId: string) =>
    t.app.api.post(`/billing/invoices/${invoiceId}/cancel`, { token: t.owner.session, body: { reason: 'Charged twice.' } });

  async function subscribed() {
    await billingHook(t);
    const session = await checkout(t);
    await billing.pay(session.body.url);
    await usageWhen(t.app, t.owner.key, (u) => u.subscriptionStatus === 'active');
    const [customer] = await billing.onPlatform(t.owner.email);
    return { customer: customer!.id, subscription: customer!.subscriptions[0].id as string };
  }

  it('credits a paid invoice in full: requested, then accepted, each announced once', async () => {
    await subscribed();
    const [paid] = await until(listed, { done: (invoices) => invoices[0]?.status === 'paid' });
    const answer = await cancel(paid.id);
    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(answer.body).to.deep.equal({
      invoiceId: paid.id,
      cancellationStatus: 'accepted',
      method: 'credit_note',
      reason: 'Charged twice.',
      amount: 2900,
      currency: 'EUR',
    });
    await until(cancellations, { done: (events) => events.length === 2, what: 'requested and accepted' });
    expect(cancellations().map((e) => [e.data.previousCancellationStatus, e.data.cancellationStatus])).to.deep.equal([
      [null, 'requested'],
      ['requested', 'accepted'],
    ]);
    expect((await listed())[0].cancellationStatus).to.equal('accepted');
    const again = await cancel(paid.id);
    expect(again.status).to.equal(409);
    expect(again.body.code).to.equal('invoice_not_cancellable');
  });

  it('voids an open invoice: the invoice becomes void, announced with invoice.status_updated', async () => {
    const { customer, subscription } = await subscribed();
    await billing.setCard(customer, DECLINED_CARD);
    await billing.renew(subscription);
    const open = await until(listed, { done: (invoices) => invoices.length === 2 && invoices[0].status === 'open' });
    const answer = await cancel(open[0].id);
    expect(answer.body).to.include({ cancellationStatus: 'accepted', method: 'void', amount: 2900 });
    await until(listed, { done: (invoices) => invoices[0].status === 'void', what: 'the invoice void' });
    const voided = await until(() => t.inbox.events().filter((e) => e.event === 'invoice.status_updated' && e.data.status === 'void'), {
      done: (events) => events.length === 1,
    });
    expect(voided[0]!.data.previousStatus).to.equal('open');
  });

  it('records a refusal of the provider as rejected, and refuses what cannot be cancelled', async () => {
    await subscribed();
    const [paid] = await until(listed, { done: (invoices) => invoices[0]?.status === 'paid' });
    // Every event of the provider handled first: a late one would bring the invoice's amount back from the provider.
    await settled(t, billing);
    // Credited out of band first (in the provider's dashboard): nothing is left to credit.
    await t.app.services.db('billingInvoices').where({ id: paid.id }).update({ amountPaid: 999999 });
    const refused = await cancel(paid.id);
    expect(refused.body).to.include({ cancellationStatus: 'rejected' });
    expect(refused.body.reason).to.match(/exceeds/);
    await until(cancellations, { done: (events) => events.length === 2 });
    expect(cancellations()[1]!.data).to.include({ cancellationStatus: 'rejected', previousCancellationStatus: 'requested' });
    const missing = await cancel('in_nothing');
    expect(missing.status).to.equal(404);
  });

  it('changes nothing when the provider cannot be reached', async () => {
    await subscribed();
    await until(listed, { done: (invoices) => invoices[0]?.status === 'paid' });
    await settled(t, billing);
    const [paid] = await listed();
    await billing.failNext(500, { count: 3 });
    const failed = await cancel(paid.id);
    expect(failed.status).to.equal(502);
    expect((await listed())[0].cancellationStatus).to.equal(null);
    const done = await cancel(paid.id);
    expect(done.body.cancellationStatus).to.equal('accepted');
  });
});
