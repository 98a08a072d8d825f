import type { Config } from '../config.js';
import type { Logger } from '../lib/logger.js';
import { unreachableFromInternet } from '../lib/public-url.js';
import type { SettingsRead } from './settings.js';

/**
 * Whether every address in a platform's settings (its API, OAuth and media hosts) is one the internet reaches: the
 * real platform's. One the operator runs on this machine or its network reaches a local PUBLIC_URL as the sandbox does.
 */
export function onTheInternet(settings: unknown): boolean {
  return Object.values(settings as Record<string, unknown>)
    .filter((value): value is string => typeof value === 'string' && /^https?:\/\//.test(value))
    .every((url) => unreachableFromInternet(url, { https: false }) === null);
}

/**
 * Says at start when real platforms are configured and PUBLIC_URL is not an address the internet reaches over HTTPS:
 * they fetch media from it and call its webhooks, so a deployment left on a local address works with the sandbox and
 * fails on every real platform. Called before the sandbox stands in, so the platforms configured are the operator's;
 * one on this machine or its network is not a real one.
 */
export function warnOfUnreachablePublicUrl(config: Config, logger: Pick<Logger, 'warn'>): void {
  const configured = Object.entries<SettingsRead<unknown>>(config.platforms)
    .filter(([, read]) => read.configured && onTheInternet(read.settings))
    .map(([id]) => id);
  const reason = configured.length > 0 ? unreachableFromInternet(config.publicUrl, { https: true }) : null;
  if (!reason) return;
  logger.warn(
    { publicUrl: config.publicUrl, platforms: configured, reason },
    `PUBLIC_URL is not reachable from the internet (${reason}): the configured platforms cannot fetch media from it nor call its webhooks`,
  );
}
