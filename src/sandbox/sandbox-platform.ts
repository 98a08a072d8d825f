import type Router from '@koa/router';
import type { PlatformModule } from '../platforms/platform-module.js';
import type { PlatformAdapter, PlatformId } from '../platforms/types.js';

/**
 * One platform's local implementation: its protocol (under its own prefix) and its people's controls (under
 * `/_sandbox/<platform>`), and the platform's settings pointing here, its demo app included.
 */
export interface SandboxPlatform<S> {
  /** The platform whose protocol it speaks, and whose settings `defaults` gives. */
  readonly platform: PlatformModule<PlatformId, S, PlatformAdapter>;
  /**
   * Adds its routes to the sandbox at `sandboxUrl`, starting from the state it kept before a restart (`stored`,
   * undefined on a first start); what it must stop when the sandbox closes, and what it keeps, if anything.
   */
  mount(router: Router, sandboxUrl: string, stored: StoredState): MountedSandbox | void;
  defaults(sandboxUrl: string): S;
}

/** What a platform kept before the sandbox restarted, and how it writes what it keeps now. */
export interface StoredState {
  readonly restored: unknown;
  /** Writes the state now, for a change the service sees before the request that made it ends (an id it was sent). */
  saveNow(): void;
}

export interface MountedSandbox {
  close?(): void;
  /** What the service relies on after a restart (bots, tokens, webhooks, id counters); written after every change. */
  state?(): unknown;
}

export function defineSandbox<S>(sandbox: SandboxPlatform<S>): SandboxPlatform<S> {
  return sandbox;
}
