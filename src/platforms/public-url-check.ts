import type { Config } from '../config.js';
import type { Logger } from '../lib/logger.js';
import { unreachableFromInternet } from '../lib/public-url.js';

/**
 * Says at start when real platforms are configured and PUBLIC_URL is not an address the internet reaches over HTTPS:
 * they fetch media from it and call its webhooks, so a deployment left on a local address works with the sandbox and
 * fails on every real platform. Called before the sandbox stands in, so the platforms configured are the operator's.
 */
export function warnOfUnreachablePublicUrl(config: Config, logger: Pick<Logger, 'warn'>): void {
  const configured = Object.entries(config.platforms)
    .filter(([, read]) => (read as { configured: boolean }).configured)
    .map(([id]) => id);
  const reason = configured.length > 0 ? unreachableFromInternet(config.publicUrl, { https: true }) : null;
  if (!reason) return;
  logger.warn(
    { publicUrl: config.publicUrl, platforms: configured, reason },
    `PUBLIC_URL is not reachable from the internet (${reason}): the configured platforms cannot fetch media from it nor call its webhooks`,
  );
}
