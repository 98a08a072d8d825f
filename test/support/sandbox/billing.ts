import { expect } from 'chai';
import type { Signing } from '../../../src/sandbox/timestamped-signature.js';
import type { TestApp } from '../app.js';
import { People } from './people.js';

/** The card the provider's test mode declines. */
export const DECLINED_CARD = '4000 0000 0000 0002';

export interface SandboxDelivery {
  eventId: string;
  type: string;
  url: string;
  status: number | null;
}

/**
 * The payment provider's side of the sandbox: a person paying on the hosted checkout page and using the
 * portal, the test clock, and the faults of its API and of its event deliveries.
 */
export class BillingPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'billing');
  }

  /**
   * A person pays on the hosted checkout page (a browser: the form is read and posted); answers where they are
   * sent, or the page's error when the card is refused.
   */
  async pay(checkoutUrl: string, card = '4242 4242 4242 4242'): Promise<{ status: number; location: string | null; page: string }> {
    const form = await fetch(checkoutUrl);
    expect(form.status).to.equal(200);
    expect(await form.text()).to.include('name="card"');
    const response = await fetch(checkoutUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card }).toString(),
      redirect: 'manual',
    });
    return { status: response.status, location: response.headers.get('location'), page: await response.text() };
  }

  /** In the billing portal at `portalUrl`: cancel (`now`, `period_end`, `undo`) or change the price of the subscription. */
  async inPortal(portalUrl: string, subscriptionId: string, action: 'now' | 'period_end' | 'undo' | { price: string }): Promise<void> {
    const page = await fetch(portalUrl);
    expect(await page.text()).to.include(subscriptionId);
    const switching = typeof action === 'object';
    const response = await fetch(`${portalUrl}/${subscriptionId}/${switching ? 'switch' : action}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: switching ? new URLSearchParams({ price: action.price }).toString() : '',
      redirect: 'manual',
    });
    expect(response.status).to.equal(302);
  }

  /** The test clock moves to the end of the subscription's period: it renews, paid by the card or failing. */
  renew(subscriptionId: string): Promise<unknown> {
    return this.post('clock/advance', { subscription: subscriptionId });
  }

  /** The customer's card from now on; `retry` pays their open invoices again with it. */
  setCard(customerId: string, card: string, retry = false): Promise<unknown> {
    return this.post('card', { customer: customerId, card, retry });
  }

  /** The next `count` API calls answer `status`; `afterWrite`: the write is done and its answer lost. */
  failNext(status: 429 | 500, options: { count?: number; afterWrite?: boolean } = {}): Promise<unknown> {
    return this.post('fail', { status, ...options });
  }

  /** The API answers again (an outage ends): the faults of `failNext` not met yet are dropped. */
  recover(): Promise<unknown> {
    return this.post('recover');
  }

  /** How the next batch of events is delivered. */
  configure(delivery: { duplicate?: boolean; reverse?: boolean }): Promise<unknown> {
    return this.post('delivery', delivery);
  }

  /** The provider's customers with this email, each with its subscriptions. */
  onPlatform(email: string): Promise<Array<{ id: string; metadata: Record<string, string>; subscriptions: any[] }>> {
    return this.get('customers', { email });
  }

  deliveries(): Promise<SandboxDelivery[]> {
    return this.get('deliveries');
  }

  /** Sends an event again, signed as asked; the service's answers. */
  async resend(eventId: string, signing: Signing): Promise<Array<number | null>> {
    return (await this.post<{ statuses: Array<number | null> }>(`events/${eventId}/resend`, { signing })).statuses;
  }
}
