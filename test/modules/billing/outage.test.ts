import { expect } from 'chai';
import { loadConfig } from '../../../src/config.js';
import { describeApi } from '../../support/harness.js';
import { BillingPeople } from '../../support/sandbox/billing.js';
import { connectBot } from '../../support/sandbox/botchat.js';
import { until } from '../../support/wait.js';
import { usageWhen } from '../usage/support.js';
import { storeRefuses } from '../webhooks/support.js';
import { billingSettings, checkout, settled } from './support.js';

// Short schedules, so that the test is fast: the platforms' webhooks are retried once, the provider's events ten
// times, each at once.
const settings = {
  ...billingSettings(),
  intake: { retryScheduleSeconds: [0] },
  billing: { ...loadConfig({}).billing, webhookRetryScheduleSeconds: Array<number>(10).fill(0) },
};

describeApi('billing — the provider events through an outage of its API', { settings }, (t) => {
  const billing = new BillingPeople(() => t.app);
  const lena = { id: 601, firstName: 'Lena' };

  /** The stored webhooks of a source (by its name) or of an account. */
  const stored = (where: { platform: string } | { sourceAccountId: string }) =>
    t.app.services.db('platformWebhooks').where(where).orderBy('id') as Promise<
      Array<{ attempts: number; error: string | null; processedAt: Date | null; failedAt: Date | null }>
    >;

  it("takes an event that failed past the platforms' schedule once the provider answers again; a platform's webhook still gives up after theirs", async function () {
    this.timeout(40_000);
    const bot = await connectBot(t.app, t.owner);
    const session = await checkout(t);
    await billing.failNext(500, { count: 1000 });
    const refusing = await storeRefuses(t.app.services.db);
    try {
      await t.sandbox.botchat.sendMessage(bot.token, 'refuse me always', lena);
      await billing.pay(session.body.url);
      // The platforms' schedule gives a webhook up at its second failure: the provider's event fails a third time.
      await until(
        async () => ({ message: (await stored({ sourceAccountId: bot.accountId }))[0], events: await stored({ platform: 'billing' }) }),
        {
          done: ({ message, events }) => message?.failedAt != null && events.some(({ attempts }) => attempts >= 3),
          what: "the platform's webhook given up and the provider's event failed 3 times",
          timeoutMs: 30_000,
        },
      );
    } finally {
      await refusing.undo();
    }
    const [message] = await stored({ sourceAccountId: bot.accountId });
    expect(message).to.deep.include({ attempts: 2, processedAt: null });
    expect(message!.error).to.include('the store refused "refuse me always"');

    await billing.recover();
    await usageWhen(t.app, t.owner.key, (u) => u.subscriptionStatus === 'active' && u.plan === 'pro');
    await settled(t, billing);
    const events = await stored({ platform: 'billing' });
    expect(events.map(({ processedAt, failedAt, error }) => ({ processed: processedAt !== null, failedAt, error }))).to.deep.equal(
      events.map(() => ({ processed: true, failedAt: null, error: null })),
    );
    expect(Math.max(...events.map(({ attempts }) => attempts))).to.be.at.least(3);
  });
});
