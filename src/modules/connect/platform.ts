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
 * Why the real platform `id` could not reach this instance at its PUBLIC_URL (an address the internet does not
 * reach over HTTPS), naming PUBLIC_URL, the reason and what `id` does there (`uses`); null when it can, or when `id`
 * is the sandbox, which runs beside the service and reaches it.
 */
export function publicUrlUnreachableBy(services: Services, id: string, uses: string): string | null {
  if (!services.platforms.isReal(id)) return null;
  const { publicUrl } = services.config;
  const reason = unreachableFromInternet(publicUrl, { https: true });
  if (!reason) return null;
  return `PUBLIC_URL (${publicUrl}) is not reachable from the internet: ${reason}. ${id} ${uses}; its operator must set PUBLIC_URL to the instance's public HTTPS address.`;
}

/**
 * 422 `public_url_unreachable` before a real platform is called while PUBLIC_URL is an address the internet does
 * not reach: connected, the platform would take the connection, then fail to call its webhooks and to fetch its
 * media there.
 */
export function assertReachableBy(
  services: Services,
  id: string,
  uses = "calls this instance's webhooks and fetches its media there",
): void {
  const detail = publicUrlUnreachableBy(services, id, uses);
  if (detail) throw new PublicUrlUnreachableError(detail);
}
