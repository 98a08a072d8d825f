import type Router from '@koa/router';
import type { MountedSandbox } from '../sandbox-platform.js';
import type { SandboxStateFiles } from '../state-files.js';
import { type AccountState, SandboxStripeAccount } from './account.js';
import { type ApiFault, mountApi } from './api.js';
import { mountControls } from './controls.js';
import { EventDelivery } from './delivery.js';
import { mountPages } from './pages.js';

/**
 * The payment provider (Stripe's protocol) in the sandbox: its REST API under `/v1`, its hosted checkout and
 * portal pages under `/billing`, its signed events sent to the endpoints registered with it, and the people's
 * controls under `/_sandbox/billing`. Its account (customers, prices, subscriptions, invoices, endpoints, the
 * test clock) is kept across restarts.
 */
export function mountBillingSandbox(router: Router, sandboxUrl: string, files: SandboxStateFiles): MountedSandbox {
  const account = new SandboxStripeAccount(files.read('billing') as AccountState | undefined, sandboxUrl);
  const delivery = new EventDelivery(() => [...account.state.endpoints.values()].map((endpoint) => String(endpoint.url)));
  const faults: ApiFault[] = [];
  // Written before the events go out: the service, told of a change, finds it when it asks (after a restart too).
  const changed = () => {
    files.write('billing', account.state);
    delivery.deliver(account.drainEvents());
  };
  mountApi(router, { account, faults, idempotency: new Map(), changed });
  mountPages(router, account, changed);
  mountControls(router, account, delivery, faults, changed);
  return { close: () => delivery.close(), state: () => account.state };
}
