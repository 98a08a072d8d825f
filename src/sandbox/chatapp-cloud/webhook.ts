import { createHmac } from 'node:crypto';
import { CloudState, type PhoneNumber } from './state.js';

export interface Delivery {
  appId: string;
  url: string | null;
  status: number | null;
}

/**
 * A `messages` change about one number to each app subscribed to its business account, signed with the app's
 * secret, at its alternate callback URL, else at `fallbackUrl` (standing for the app's callback URL in its dashboard).
 */
export async function deliverChange(
  state: CloudState,
  number: PhoneNumber,
  value: Record<string, unknown>,
  fallbackUrl?: string,
): Promise<{ payload: unknown; deliveries: Delivery[] }> {
  const waba = state.wabas.get(number.wabaId)!;
  const payload = {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: waba.id,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: CloudState.digits(number), phone_number_id: number.id },
              ...value,
            },
          },
        ],
      },
    ],
  };
  const raw = JSON.stringify(payload);
  const deliveries: Delivery[] = [];
  for (const [appId, subscription] of waba.subscriptions) {
    const url = subscription.overrideCallbackUri ?? fallbackUrl ?? null;
    const secret = state.apps.get(appId)!.secret;
    if (!url) {
      deliveries.push({ appId, url, status: null });
      continue;
    }
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`,
        'X-Hub-Signature': `sha1=${createHmac('sha1', secret).update(raw).digest('hex')}`,
      },
      body: raw,
    });
    await response.arrayBuffer();
    deliveries.push({ appId, url, status: response.status });
  }
  return { payload, deliveries };
}
