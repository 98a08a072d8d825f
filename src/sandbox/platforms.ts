import type { PlatformSettings } from '../platforms/registry.js';
import { aiSandbox } from './ai/index.js';
import { billingSandbox } from './billing/index.js';
import { botchatSandbox } from './botchat/index.js';
import { chatappCloudSandbox } from './chatapp-cloud/index.js';
import { qrchatSandbox } from './qrchat/index.js';
import { type PlatformSandbox, type SandboxPart, withDefaults } from './sandbox-platform.js';
import { searchSuiteSandbox } from './search-suite/index.js';
import { shortVideoAdsSandbox } from './short-video-ads/index.js';
import { shortVideoSandbox } from './short-video/index.js';
import { socialNetworkSandbox } from './social-network/index.js';
import { socialThreadsSandbox } from './social-threads/index.js';
import { walletSandbox } from './wallet/index.js';

/** Every platform the sandbox plays. A new platform's sandbox is its folder and one line here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each platform's settings type differs.
const PLATFORM_SANDBOXES: ReadonlyArray<PlatformSandbox<any>> = [
  botchatSandbox,
  chatappCloudSandbox,
  qrchatSandbox,
  searchSuiteSandbox,
  shortVideoSandbox,
  shortVideoAdsSandbox,
  socialNetworkSandbox,
  socialThreadsSandbox,
];

/** Everything the sandbox stands in for, mounted in this order: the platforms, then the providers the service uses. */
export const SANDBOXES: readonly SandboxPart[] = [...PLATFORM_SANDBOXES, aiSandbox, billingSandbox, walletSandbox];

/**
 * The settings with every platform left unconfigured pointed at the sandbox at `sandboxUrl` (one started apart from
 * the service): its defaults, with what was set of the platform's own (a version, an app secret) kept.
 */
export function withSandboxDefaults(settings: PlatformSettings, sandboxUrl: string): PlatformSettings {
  return PLATFORM_SANDBOXES.reduce((completed, sandbox) => withDefaults(completed, sandbox.key, sandbox.defaults(sandboxUrl)), settings);
}
