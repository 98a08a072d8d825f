import { wellFormed } from '../../lib/storable.js';
import type { IncomingEvent, WebhookReceiver, WebhookSource } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';

/**
 * The receiver of one source's webhooks, whatever the source: a platform's (its `webhooks` capability), or an
 * area's that is no platform (the payment provider's, `Area.webhookSources`). Null when this instance runs without it.
 */
export function receiverOf(services: Services, source: string): WebhookReceiver | null {
  return services.platforms.get(source)?.webhooks ?? services.webhookSources(services, source);
}

/**
 * The events a stored or arriving webhook carries, as the service takes them: a lone surrogate in what people wrote
 * is U+FFFD (see `wellFormed`), both when the webhook is checked on arrival and when it is processed.
 */
export function eventsOf(receiver: WebhookReceiver, body: string, source: WebhookSource): IncomingEvent[] {
  return wellFormed(receiver.parse(body, source));
}
