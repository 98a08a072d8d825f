import type { Readable } from 'node:stream';
import type { SettingsRead } from './settings.js';
import type { PlatformAdapter, PlatformId } from './types.js';

/** Opens a stored media file's bytes (an inclusive range of them). */
export type OpenMedia = (mediaId: string, range: { start: number; end: number }) => Promise<Readable>;

/** What the service lends the adapters it creates. */
export interface PlatformDeps {
  /** Where the platforms reach the service: their webhooks come to `${publicUrl}/webhooks/<platform>`. */
  publicUrl: string;
  /** Reads a stored media file, for a platform that is sent a file's bytes rather than its URL. */
  openMedia: OpenMedia;
}

/**
 * One platform (or several sharing one app: search_suite and calendar), as the registry lists it: its settings,
 * read from the environment, and its adapters, created from them. The first id names its settings.
 */
export interface PlatformModule<Id extends PlatformId = PlatformId, S = unknown, A extends PlatformAdapter = PlatformAdapter> {
  readonly ids: readonly [Id, ...PlatformId[]];
  settings(env: NodeJS.ProcessEnv): SettingsRead<S>;
  create(settings: S, deps: PlatformDeps): readonly A[];
}

export function definePlatform<Id extends PlatformId, S, A extends PlatformAdapter>(
  module: PlatformModule<Id, S, A>,
): PlatformModule<Id, S, A> {
  return module;
}
