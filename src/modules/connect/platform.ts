import type { AdapterOf } from '../../platforms/registry.js';
import type { PlatformAdapter, PlatformId } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { PlatformNotConfiguredError } from './errors.js';

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
