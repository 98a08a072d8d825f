import { type Signing, timestampedSignature } from './timestamped-signature.js';

/** One TikTok webhook: the event, whom it is about (Login Kit's users), and its `content`, as an object or already written. */
export interface TikTokEvent {
  event: string;
  userOpenId?: string;
  /** Written as given when a string (to write an int64 as the number it is). */
  content: Record<string, unknown> | string;
}

/**
 * Signs and sends one webhook as TikTok does, for Login Kit and the Business API alike: the body
 * `{client_key, event, create_time, user_openid, content}` (`content` a JSON string) and
 * `TikTok-Signature: t=<unix>,s=<hex HMAC-SHA256 of "t.rawBody">` with the app's secret (or the fault asked for).
 */
export async function sendTikTokWebhook(
  url: string,
  app: { clientKey: string; secret: string },
  { event, userOpenId, content }: TikTokEvent,
  signing: Signing = 'valid',
): Promise<{ payload: Record<string, unknown>; webhookStatus: number }> {
  const payload = {
    client_key: app.clientKey,
    event,
    create_time: Math.floor(Date.now() / 1000),
    ...(userOpenId === undefined ? {} : { user_openid: userOpenId }),
    content: typeof content === 'string' ? content : JSON.stringify(content),
  };
  const raw = JSON.stringify(payload);
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'TikTok-Signature': timestampedSignature(raw, app.secret, 's', signing) },
    body: raw,
  });
  await response.arrayBuffer();
  return { payload, webhookStatus: response.status };
}
