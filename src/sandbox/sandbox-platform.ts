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
  /** Adds its routes to the sandbox at `sandboxUrl`; what it must stop when the sandbox closes, if anything. */
  mount(router: Router, sandboxUrl: string): { close(): void } | void;
  defaults(sandboxUrl: string): S;
}

export function defineSandbox<S>(sandbox: SandboxPlatform<S>): SandboxPlatform<S> {
  return sandbox;
}
