import { describeApi } from '../../support/harness.js';
import { itPagesByKeyset } from '../../support/keyset-list.js';
import { BillingPeople } from '../../support/sandbox/billing.js';
import { until } from '../../support/wait.js';
import { usageWhen } from '../usage/support.js';
import { billingSettings, checkout } from './support.js';

describeApi('billing — the invoices list', { settings: billingSettings() }, (t) => {
  const billing = new BillingPeople(() => t.app);

  // A subscription and its renewals on the test clock: an invoice each, a month apart.
  itPagesByKeyset(t, 'listBillingInvoices', async (count) => {
    const session = await checkout(t);
    await billing.pay(session.body.url);
    await usageWhen(t.app, t.owner.key, (u) => u.subscriptionStatus === 'active');
    const [customer] = await billing.onPlatform(t.owner.email);
    for (let renewal = 1; renewal < count; renewal += 1) await billing.renew(customer!.subscriptions[0].id);
    const invoices = await until(async () => (await t.app.api.get('/billing/invoices?limit=100', { token: t.owner.session })).body.data, {
      done: (data: Array<{ id: string; status: string }>) => data.length === count && data.every((invoice) => invoice.status === 'paid'),
      what: `${count} paid invoices`,
    });
    return { path: '/billing/invoices', ids: invoices.map((invoice: { id: string }) => invoice.id), token: t.owner.session };
  });
});
