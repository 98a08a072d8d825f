import type Router from '@koa/router';
import type { MountedSandbox, SandboxPart, StoredState } from '../sandbox-platform.js';
import { SandboxStripeAccount } from './account.js';
import { type ApiFault, mountApi } from './api.js';
import { BILLING_CONTROLS, mountControls } from './controls.js';
import { SANDBOX_BILLING } from './defaults.js';
import { EventDelivery } from './delivery.js';
import type { AccountState } from './objects.js';
import { mountPages } from './pages.js';

/**
 * The payment provider (Stripe's protocol) in the sandbox: its REST API under `/v1`, its hosted checkout and
 * portal pages under `/billing`, its signed events sent to the endpoints registered with it, and the people's
 * controls under `/_sandbox/billing`. Its account (customers, prices, subscriptions, invoices, endpoints, the
 * test clock) is kept across restarts. The service bills through it when its operator configured no provider.
 */
export const billingSandbox: SandboxPart = { key: 'billing', mount: mountBillingSandbox, controls: BILLING_CONTROLS };

function mountBillingSandbox(router: Router, sandboxUrl: string, stored: StoredState): MountedSandbox {
  const account = new SandboxStripeAccount(stored.restored as AccountState | undefined, sandboxUrl);
  const delivery = new EventDelivery(() => [...account.state.endpoints.values()].map((endpoint) => String(endpoint.url)));
  const faults: ApiFault[] = [];
  // Written before the events go out: the service, told of a change, finds it when it asks (after a restart too).
  const changed = () => {
    stored.saveNow();
    delivery.deliver(account.drainEvents());
  };
  mountApi(router, { account, faults, idempotency: new Map(), changed });
  mountPages(router, account, changed);
  mountControls(router, account, delivery, faults, changed);
  return {
    close: () => delivery.close(),
    state: () => account.state,
    // Its endpoints start empty: the service registers its own, as a developer does with `stripe listen`.
    standIn: (config) =>
      config.billing.secretKey
        ? config
        : { ...config, billing: { ...config.billing, ...SANDBOX_BILLING, apiUrl: sandboxUrl, registersEndpoint: true } },
  };
}
