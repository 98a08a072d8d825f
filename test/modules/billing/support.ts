import type { TestAppSettings } from '../../support/app.js';
import type { ApiTest } from '../../support/harness.js';
import type { BillingPeople } from '../../support/sandbox/billing.js';
import { until } from '../../support/wait.js';
import { usageSettings } from '../usage/support.js';

/** Plans sold at the sandbox's demo prices; `free` allows 1 connected account and 2 posts a month, hard. */
export const PLANS = {
  free: { limits: { posts: 2, connectedAccounts: 1 }, hard: ['posts', 'connectedAccounts'] },
  starter: { prices: { month: 'starter_monthly' }, limits: { posts: 20, connectedAccounts: 3 }, hard: ['posts', 'connectedAccounts'] },
  pro: { prices: { month: 'pro_monthly', year: 'pro_yearly' }, limits: { posts: 100, connectedAccounts: 10 }, hard: ['posts'] },
};

export function billingSettings(): TestAppSettings {
  return usageSettings(PLANS);
}

/** The owner's subscription through the hosted checkout, paid with `card`; answers the checkout's answer. */
export async function checkout(t: ApiTest, plan = 'pro', interval: 'month' | 'year' = 'month') {
  const response = await t.app.api.post('/billing/checkout', {
    token: t.owner.session,
    body: {
      plan,
      interval,
      successUrl: 'https://app.example.com/done?session={CHECKOUT_SESSION_ID}',
      cancelUrl: 'https://app.example.com/billing',
    },
  });
  return response;
}

/** A hook on every owner-level billing event, delivering to the test's inbox. */
export async function billingHook(t: ApiTest): Promise<void> {
  const response = await t.app.api.post('/hooks', {
    token: t.owner.key,
    body: { url: `${t.inbox.url}/billing`, events: ['invoice.status_updated', 'invoice.cancellation_status_updated'] },
  });
  if (response.status !== 201) throw new Error(JSON.stringify(response.body));
}

/** Waits until the sandbox has delivered every event it made and the service has processed each. */
export async function settled(t: ApiTest, billing: BillingPeople): Promise<void> {
  await until(
    async () => {
      const deliveries = await billing.deliveries();
      const waiting = (await t.app.services
        .db('platformWebhooks')
        .where({ platform: 'billing' })
        .whereNull('processedAt')
        .whereNull('failedAt')
        .count({ n: '*' })) as Array<{ n: string }>;
      return deliveries.every((d) => d.status === 200) && Number(waiting[0]!.n) === 0;
    },
    { what: 'every billing event delivered and processed' },
  );
}
