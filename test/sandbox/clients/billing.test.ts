import { expect } from 'chai';
import Stripe from 'stripe';
import { STRIPE_API_VERSION } from '../../../src/modules/billing/provider.js';
import { SANDBOX_BILLING } from '../../../src/sandbox/billing/defaults.js';
import { sandboxForFile } from './sandbox.js';

describe('sandbox payment provider — through the stripe client (23.1.0)', () => {
  const sandbox = sandboxForFile();
  const stripe = () => {
    const url = new URL(sandbox.url());
    return new Stripe(SANDBOX_BILLING.secretKey, {
      apiVersion: STRIPE_API_VERSION,
      host: url.hostname,
      port: url.port,
      protocol: 'http',
      maxNetworkRetries: 0,
      telemetry: false,
    });
  };
  const refusal = (call: Promise<unknown>) =>
    call.then(
      () => expect.fail('the call succeeded'),
      (error: unknown) => {
        expect(error).to.be.instanceOf(Stripe.errors.StripeError);
        return error as InstanceType<typeof Stripe.errors.StripeError>;
      },
    );

  it('creates, reads and updates a customer; every answer has a Request-Id', async () => {
    const created = await stripe().customers.create({ email: 'ana@example.com', metadata: { ownerId: 'own_1' } });
    expect(created.lastResponse.requestId).to.match(/^req_/);
    expect(((await stripe().customers.retrieve(created.id)) as Stripe.Customer).email).to.equal('ana@example.com');
    const updated = await stripe().customers.update(created.id, { email: 'ana@new.example', metadata: { plan: 'pro' } });
    expect(updated).to.include({ email: 'ana@new.example' });
    expect(updated.metadata).to.deep.equal({ ownerId: 'own_1', plan: 'pro' });
  });

  it('refuses an unknown customer with a JSON error the client reads: resource_missing, naming the param', async () => {
    const missing = await refusal(stripe().customers.update('cus_nothing', { email: 'x@example.com' }));
    expect(missing).to.be.instanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).to.include({ statusCode: 404, code: 'resource_missing', param: 'id' });
    expect(missing.requestId).to.match(/^req_/);
    const unknownPath = await refusal(stripe().rawRequest('GET', '/v1/nothing_here'));
    expect(unknownPath.statusCode).to.equal(404);
  });

  it('replays an idempotent create, and refuses the key used again with other parameters: 400 idempotency_error', async () => {
    const first = await stripe().customers.create({ email: 'key@example.com' }, { idempotencyKey: 'k-1' });
    const again = await stripe().customers.create({ email: 'key@example.com' }, { idempotencyKey: 'k-1' });
    expect(again.id).to.equal(first.id);
    const other = await refusal(stripe().customers.create({ email: 'other@example.com' }, { idempotencyKey: 'k-1' }));
    expect(other).to.be.instanceOf(Stripe.errors.StripeIdempotencyError);
    expect(other.statusCode).to.equal(400);
  });

  it('makes checkout sessions in subscription and payment mode, and refuses another mode naming it', async () => {
    const customer = await stripe().customers.create({ email: 'pay@example.com' });
    const [price] = (await stripe().prices.list({ active: true })).data;
    const base = {
      customer: customer.id,
      line_items: [{ price: price!.id, quantity: 1 }],
      success_url: 'https://app.example/ok',
      cancel_url: 'https://app.example/no',
    };
    expect((await stripe().checkout.sessions.create({ ...base, mode: 'subscription' })).mode).to.equal('subscription');
    const payment = await stripe().checkout.sessions.create({ ...base, mode: 'payment' });
    expect(payment).to.include({ mode: 'payment', status: 'open' });
    expect((await stripe().checkout.sessions.retrieve(payment.id)).id).to.equal(payment.id);
    expect(await refusal(stripe().checkout.sessions.create({ ...base, mode: 'setup' }))).to.include({ statusCode: 400, param: 'mode' });
    const noCustomer = await refusal(stripe().checkout.sessions.create({ ...base, customer: 'cus_nothing', mode: 'payment' }));
    expect(noCustomer).to.include({ code: 'resource_missing', param: 'customer' });
  });

  it('registers and removes a webhook endpoint; portal sessions open', async () => {
    const endpoint = await stripe().webhookEndpoints.create({ url: 'https://app.example/webhooks/billing', enabled_events: ['*'] });
    expect(endpoint.secret).to.equal(SANDBOX_BILLING.webhookSecret);
    expect((await stripe().webhookEndpoints.list()).data.map((each) => each.id)).to.include(endpoint.id);
    expect(await stripe().webhookEndpoints.del(endpoint.id)).to.include({ deleted: true });
    const customer = await stripe().customers.create({ email: 'portal@example.com' });
    const portal = await stripe().billingPortal.sessions.create({ customer: customer.id, return_url: 'https://app.example/billing' });
    expect(portal.url).to.be.a('string');
  });
});
