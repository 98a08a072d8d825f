import { expect } from 'chai';
import { describeApi } from '../../support/harness.js';
import { usageSettings } from '../usage/support.js';

// No BILLING_PLANS: a self-hosted instance, everyone on the unlimited plan, though the sandbox runs.
describeApi('billing — an instance without billing', { settings: usageSettings() }, (t) => {
  it('answers the billing routes 422 billing_not_configured naming BILLING_PLANS, lists no invoices, and keeps everyone unlimited', async () => {
    const body = { plan: 'pro', interval: 'month', successUrl: 'https://app.example.com/ok', cancelUrl: 'https://app.example.com/no' };
    const checkout = await t.app.api.post('/billing/checkout', { token: t.owner.session, body });
    expect(checkout.status).to.equal(422);
    expect(checkout.body.code).to.equal('billing_not_configured');
    expect(checkout.body.detail).to.equal(
      'This instance sells no plans: its operator turns billing on by setting BILLING_PLANS (or BILLING_PLANS_FILE).',
    );
    const portal = await t.app.api.post('/billing/portal', { token: t.owner.session, body: { returnUrl: 'https://app.example.com' } });
    expect(portal.body.code).to.equal('billing_not_configured');
    const cancel = await t.app.api.post('/billing/invoices/in_123/cancel', { token: t.owner.session });
    expect(cancel.body.code).to.equal('billing_not_configured');
    expect((await t.app.api.get('/billing/invoices', { token: t.owner.session })).body).to.deep.equal({ data: [], nextCursor: null });
    expect((await t.app.api.get('/usage', { token: t.owner.key })).body).to.include({ plan: 'unlimited', subscriptionStatus: 'none' });
  });

  it('refuses a malformed invoice cursor with 400 invalid_cursor', async () => {
    const response = await t.app.api.get('/billing/invoices?cursor=bm9wZQ', { token: t.owner.session });
    expect(response.status).to.equal(400);
    expect(response.body.code).to.equal('invalid_cursor');
  });
});
