import { type Signing, timestampedSignature } from '../timestamped-signature.js';
import type { StripeEvent } from './objects.js';
import { SANDBOX_BILLING } from './defaults.js';

/** How the next batch of events is delivered: faults the provider's deliveries really show. */
export interface DeliveryFaults {
  /** Each event is sent twice. */
  duplicate?: boolean;
  /** The batch is sent last event first. */
  reverse?: boolean;
}

export interface Delivery {
  eventId: string;
  type: string;
  url: string;
  status: number | null;
}

const RETRY_DELAYS_MS = [500, 1000, 2000, 4000];

/**
 * Sends events to the registered endpoints, one batch at a time, in order (unless told otherwise), retrying an
 * answer that is not 2xx a few times as the provider does. What each attempt got is kept for the controls.
 */
export class EventDelivery {
  readonly log: Delivery[] = [];
  private next: DeliveryFaults = {};
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** Events by id, to send one again on demand. */
  private readonly sent = new Map<string, StripeEvent>();

  constructor(private readonly endpoints: () => string[]) {}

  setNext(faults: DeliveryFaults): void {
    this.next = faults;
  }

  event(id: string): StripeEvent | undefined {
    return this.sent.get(id);
  }

  deliver(events: StripeEvent[]): void {
    if (events.length === 0) return;
    const faults = this.next;
    this.next = {};
    const ordered = faults.reverse ? [...events].reverse() : events;
    const batch = faults.duplicate ? ordered.flatMap((event) => [event, event]) : ordered;
    for (const event of events) this.sent.set(event.id, event);
    this.queue = this.queue.then(async () => {
      for (const event of batch) for (const url of this.endpoints()) await this.sendWithRetries(url, event);
    });
  }

  /** One attempt, signed as asked; its HTTP status (null when nothing answered). */
  async send(url: string, event: StripeEvent, signing: Signing = 'valid'): Promise<number | null> {
    const body = JSON.stringify(event, null, 2);
    let status: number | null = null;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'Stripe-Signature': timestampedSignature(body, SANDBOX_BILLING.webhookSecret, 'v1', signing),
        },
        body,
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = null;
    }
    this.log.push({ eventId: event.id, type: event.type, url, status });
    if (this.log.length > 1000) this.log.shift();
    return status;
  }

  private async sendWithRetries(url: string, event: StripeEvent): Promise<void> {
    for (const delay of [0, ...RETRY_DELAYS_MS]) {
      if (this.closed) return;
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay).unref());
      const status = await this.send(url, event);
      if (status !== null && status < 300) return;
    }
  }

  close(): void {
    this.closed = true;
  }
}
