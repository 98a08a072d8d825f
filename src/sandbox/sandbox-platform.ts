import type Router from '@koa/router';
import type { Config } from '../config.js';
import type { PlatformModule } from '../platforms/platform-module.js';
import type { PlatformSettings } from '../platforms/registry.js';
import type { SettingsRead } from '../platforms/settings.js';
import type { ControlBodies } from './control-schema.js';
import type { PlatformAdapter, PlatformId } from '../platforms/types.js';

/**
 * One thing the sandbox stands in for: a platform, or a provider the service uses (the AI provider, the payment
 * provider, the wallet vendor's authority and push service). Each is mounted, keeps its state and gives the service
 * its settings the same way; `src/sandbox/platforms.ts` lists them.
 */
export interface SandboxPart {
  /** Its name: the state it keeps is written under it. */
  readonly key: string;
  /** Adds its routes to the sandbox at `sandboxUrl`, starting from the state it kept before a restart. */
  mount(router: Router, sandboxUrl: string, stored: StoredState): MountedSandbox | void;
  /** The bodies its people's controls take (control-schema.ts). */
  readonly controls?: ControlBodies;
}

/** What a part kept before the sandbox restarted, and how it writes what it keeps now. */
export interface StoredState {
  /** Undefined on a first start. */
  readonly restored: unknown;
  /** Writes the state now, for a change the service sees before the request that made it ends (an id it was sent). */
  saveNow(): void;
}

export interface MountedSandbox {
  close?(): void;
  /** What the service relies on after a restart (bots, tokens, webhooks, id counters); written after every change. */
  state?(): unknown;
  /**
   * The service's configuration with what this stands in for pointed here, where the operator left it unset: how
   * the service finds the sandbox (it never imports it nor asks it at a special address).
   */
  standIn?(config: Config): Config | Promise<Config>;
}

/** One platform's local implementation: its protocol (under its own prefix) and its people's controls (under `/_sandbox/<platform>`). */
export interface SandboxPlatform<S> {
  /** The platform whose protocol it speaks, and whose settings `defaults` gives. */
  readonly platform: PlatformModule<PlatformId, S, PlatformAdapter>;
  mount(router: Router, sandboxUrl: string, stored: StoredState): MountedSandbox | void;
  /** The bodies its people's controls take (control-schema.ts). */
  controls?: ControlBodies;
  /** The platform's settings pointing here, its demo app included. */
  defaults(sandboxUrl: string): S;
}

/** A platform's sandbox as a part: kept under the platform's id, it stands in for the platform left unconfigured. */
export type PlatformSandbox<S> = SandboxPart & Pick<SandboxPlatform<S>, 'platform' | 'defaults'>;

export function defineSandbox<S>(sandbox: SandboxPlatform<S>): PlatformSandbox<S> {
  const id = sandbox.platform.ids[0];
  return {
    key: id,
    platform: sandbox.platform,
    defaults: sandbox.defaults,
    controls: sandbox.controls,
    mount: (router, sandboxUrl, stored) => ({
      ...sandbox.mount(router, sandboxUrl, stored),
      standIn: (config) => ({ ...config, platforms: withDefaults(config.platforms, id, sandbox.defaults(sandboxUrl)) }),
    }),
  };
}

/**
 * The platforms' settings with platform `id`, where it was left unconfigured, given the sandbox's `defaults` and what
 * was set of its own (a version, an app secret).
 */
export function withDefaults<S>(settings: PlatformSettings, id: string, defaults: S): PlatformSettings {
  const read = (settings as Readonly<Record<string, SettingsRead<unknown>>>)[id] as SettingsRead<S>;
  return read.configured ? settings : { ...settings, [id]: { configured: true, settings: { ...defaults, ...read.partial } } };
}
