import { createHmac } from 'node:crypto';

/** How a sandbox signs a webhook: well, or with a fault a test looks at (another secret, a time ten minutes ago or ahead). */
export type Signing = 'valid' | 'mismatch' | 'stale' | 'future';

const SKEW_SECONDS = 600;

/**
 * `t=<unix>,<scheme>=<hex HMAC-SHA256 of "t.body">`, as TikTok (`s`) and the payment provider (`v1`) sign their
 * webhooks, well made or with the fault asked for.
 */
export function timestampedSignature(body: string, secret: string, scheme: string, signing: Signing = 'valid'): string {
  const now = Math.floor(Date.now() / 1000);
  const t = signing === 'stale' ? now - SKEW_SECONDS : signing === 'future' ? now + SKEW_SECONDS : now;
  const key = signing === 'mismatch' ? `${secret}_not` : secret;
  return `t=${t},${scheme}=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}
