import type { WebhookReceiver } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';

/**
 * The receiver of one source's webhooks, whatever the source: a platform's (its `webhooks` capability), or an
 * area's that is no platform (the payment provider's, `Area.webhookSources`). Null when this instance runs without it.
 */
export function receiverOf(services: Services, source: string): WebhookReceiver | null {
  return services.platforms.get(source)?.webhooks ?? services.webhookSources(services, source);
}
