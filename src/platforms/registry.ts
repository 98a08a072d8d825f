import type { Capabilities, CapabilityName } from './capabilities/index.js';
import { botchat } from './botchat/index.js';
import { chatappCloud } from './chatapp-cloud/index.js';
import type { PlatformDeps, PlatformModule } from './platform-module.js';
import { onTheInternet } from './public-url-check.js';
import { qrchat } from './qrchat/index.js';
import { searchSuite } from './search-suite/index.js';
import type { SettingsRead } from './settings.js';
import { shortVideoAds } from './short-video-ads/index.js';
import { shortVideo } from './short-video/index.js';
import { socialNetwork } from './social-network/index.js';
import { socialThreads } from './social-threads/index.js';
import type { PlatformAdapter, PlatformId } from './types.js';

/** Every platform the service speaks to. A new platform is its folder (settings.ts, index.ts) and one line here. */
export const PLATFORMS = [botchat, chatappCloud, qrchat, searchSuite, shortVideo, shortVideoAds, socialNetwork, socialThreads] as const;

type Module = (typeof PLATFORMS)[number];

/** Each platform module's settings as read from the environment, by its first id. */
export type PlatformSettings = { readonly [M in Module as M['ids'][0]]: ReturnType<M['settings']> };

/** The adapter of one platform with its own type (its operations beyond the capabilities: connecting a bot). */
export type AdapterOf<K extends PlatformId> = Extract<ReturnType<Module['create']>[number], { id: K }>;

/** The loop's view of the list: each module with its own settings, whatever their type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each module's settings type differs; the loop only passes them back to it.
const modules: ReadonlyArray<PlatformModule<PlatformId, any>> = PLATFORMS;

export function readPlatformSettings(env: NodeJS.ProcessEnv): PlatformSettings {
  return Object.fromEntries(modules.map((module) => [module.ids[0], module.settings(env)])) as PlatformSettings;
}

/** Whether any platform is left unconfigured: the sandbox, where it runs, serves those. */
export function anyUnconfigured(settings: PlatformSettings): boolean {
  return Object.values<SettingsRead<unknown>>(settings).some((read) => !read.configured);
}

/**
 * The adapters of the platforms this process runs, built once from their settings (the real platform's, or the
 * sandbox's filled in at start-up). A platform left unconfigured is not available: it has no adapter, and
 * `unavailable` says what would configure it.
 */
export class Platforms {
  private readonly byId = new Map<string, PlatformAdapter>();
  /** What would configure each platform this instance runs without (`set BOTCHAT_API_URL`). */
  readonly unavailable = new Map<string, string>();
  /**
   * The platforms the operator configured at addresses on the internet: the real ones. The others are the sandbox's,
   * or one the operator runs on this machine or its network, which reaches a local PUBLIC_URL as the sandbox does.
   */
  private readonly real = new Set<string>();

  /** `operators`: the settings as the operator gave them, before the sandbox stood in for what was left unset. */
  constructor(settings: PlatformSettings, deps: PlatformDeps, operators: PlatformSettings = settings) {
    for (const module of modules) {
      const key = module.ids[0] as keyof PlatformSettings;
      const read = settings[key] as SettingsRead<unknown>;
      if (read.configured) for (const adapter of module.create(read.settings, deps)) this.byId.set(adapter.id, adapter);
      else for (const id of module.ids) this.unavailable.set(id, read.needs);
      const operator = operators[key] as SettingsRead<unknown>;
      if (operator.configured && onTheInternet(operator.settings)) for (const id of module.ids) this.real.add(id);
    }
  }

  /** Whether `id` is the real platform (reached over the internet), not the sandbox standing in for it. */
  isReal(id: string): boolean {
    return this.real.has(id);
  }

  get<K extends PlatformId>(id: K): AdapterOf<K> | undefined;
  get(id: string): PlatformAdapter | undefined;
  get(id: string): PlatformAdapter | undefined {
    return this.byId.get(id);
  }

  /** What a platform can do of `name` (its publisher, its webhook receiver), where it can. */
  capability<N extends CapabilityName>(id: string, name: N): Capabilities[N] | undefined {
    return this.byId.get(id)?.[name] as Capabilities[N] | undefined;
  }

  all(): PlatformAdapter[] {
    return [...this.byId.values()];
  }
}
