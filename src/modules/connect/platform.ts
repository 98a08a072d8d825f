import type { AdapterOf } from '../../platforms/registry.js';
import type { PlatformAdapter, PlatformId } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { unreachableFromInternet } from '../../lib/public-url.js';
import { PlatformNotConfiguredError, PublicUrlUnreachableError } from './errors.js';

/**
 * The adapter of the platform an account is being connected to; 422 `platform_not_configured` when this instance
 * runs without it (left unconfigured with the sandbox off), saying what its operator would set.
 */
export function platformToConnect<K extends PlatformId>(services: Services, id: K): AdapterOf<K>;
export function platformToConnect(services: Services, id: string): PlatformAdapter;
export function platformToConnect(services: Services, id: string): PlatformAdapter {
  const adapter = services.platforms.get(id);
  if (adapter) return adapter;
  throw new PlatformNotConfiguredError(
    `This instance runs without ${id}: its operator would ${services.platforms.unavailable.get(id) ?? 'configure it'}.`,
  );
}

/**
 * 422 `public_url_unreachable` before a real platform is connected while PUBLIC_URL is an address the internet
 * does not reach over HTTPS: the platform would take the connection, then fail to call its webhooks and to fetch
 * its media there. The sandbox, beside the service, reaches it.
 */
export function assertReachableBy(services: Services, id: string): void {
  if (!services.platforms.isReal(id)) return;
  const { publicUrl } = services.config;
  const reason = unreachableFromInternet(publicUrl, { https: true });
  if (!reason) return;
  throw new PublicUrlUnreachableError(
    `PUBLIC_URL (${publicUrl}) is not reachable from the internet: ${reason}. ${id} calls this instance's webhooks and fetches its media there; its operator must set PUBLIC_URL to the instance's public HTTPS address.`,
  );
}
