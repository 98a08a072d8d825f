import type { PlatformSettings } from '../platforms/registry.js';
import type { SettingsRead } from '../platforms/settings.js';
import { botchatSandbox } from './botchat/index.js';
import { chatappCloudSandbox } from './chatapp-cloud/index.js';
import { qrchatSandbox } from './qrchat/index.js';
import type { SandboxPlatform } from './sandbox-platform.js';
import { searchSuiteSandbox } from './search-suite/index.js';
import { shortVideoAdsSandbox } from './short-video-ads/index.js';
import { shortVideoSandbox } from './short-video/index.js';
import { socialNetworkSandbox } from './social-network/index.js';
import { socialThreadsSandbox } from './social-threads/index.js';

/** Every platform the sandbox plays. A new platform's sandbox is its folder and one line here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each platform's settings type differs.
export const SANDBOXES: ReadonlyArray<SandboxPlatform<any>> = [
  botchatSandbox,
  chatappCloudSandbox,
  qrchatSandbox,
  searchSuiteSandbox,
  shortVideoSandbox,
  shortVideoAdsSandbox,
  socialNetworkSandbox,
  socialThreadsSandbox,
];

/**
 * The settings with every platform left unconfigured pointed at the sandbox at `sandboxUrl`: its defaults, with
 * what was set of the platform's own (a version, an app secret) kept. Configured platforms stay as they are.
 */
export function withSandboxDefaults(settings: PlatformSettings, sandboxUrl: string): PlatformSettings {
  const completed: Record<string, SettingsRead<unknown>> = { ...settings };
  for (const sandbox of SANDBOXES) {
    const id = sandbox.platform.ids[0];
    const read = completed[id];
    if (read && !read.configured) completed[id] = { configured: true, settings: { ...sandbox.defaults(sandboxUrl), ...read.partial } };
  }
  return completed as PlatformSettings;
}
