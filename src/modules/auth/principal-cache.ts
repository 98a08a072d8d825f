import { NotificationListener } from '../../lib/listener.js';
import type { Logger } from '../../lib/logger.js';
import type { Principal } from './principal.js';
import { principalId } from './principal.js';

/**
 * The channel on which triggers announce, by id, every change that can end a token's validity (migration
 * 202611240100_auth_announce_principal_changes).
 */
const CHANNEL = 'socialgate_principals';

/**
 * How long a principal is trusted without reading its row again. Revocations are announced (NOTIFY) and drop
 * it at once everywhere; this bounds what a missed announcement can cost (while the listening connection is
 * lost).
 */
export const CACHED_PRINCIPAL_MS = 10_000;

/** How long a change waits to be heard back before its request is answered anyway. */
const HEARD_WITHIN_MS = 2_000;

/** Beyond this many cached tokens the oldest are dropped: a cache of the busy ones, not of every token. */
const MAX_ENTRIES = 10_000;

export interface CachedPrincipal {
  principal: Principal;
  /** When the token expires (epoch ms), null for a key without expiry: checked on every use. */
  expiresAt: number | null;
  /** An API key's `lastUsedAt` as this process knows it (epoch ms): what it read or last wrote. */
  lastUsedAt: number | null;
  /** When this entry stops being trusted (epoch ms). */
  trustedUntil: number;
}

/**
 * The principals of recently used tokens, by token hash, so that a request authenticates without a query.
 * One per process; every process listens for the announcements of changed principals.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, CachedPrincipal>();
  /** The token hash of each cached principal (one token each), so that dropping one costs no scan. */
  private readonly hashes = new Map<string, string>();
  /** Counts the announcements heard: a lookup started before one may have read what it revoked. */
  private generation = 0;
  private readonly listener: NotificationListener;
  /** Those waiting to hear of a change, by principal id. */
  private readonly waiting = new Map<string, Set<() => void>>();

  private constructor(databaseUrl: string, logger: Logger) {
    this.listener = new NotificationListener(
      databaseUrl,
      [CHANNEL],
      // No channel: (re)connected, announcements may have been missed. `*`: many rows went at once.
      (channel, id) => this.drop(channel && id !== '*' ? id : undefined),
      logger,
      'principal-cache',
    );
  }

  static async start(databaseUrl: string, logger: Logger): Promise<PrincipalCache> {
    const cache = new PrincipalCache(databaseUrl, logger);
    await cache.listener.start();
    return cache;
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }

  /**
   * Makes a change to principal `id` (revokes it, logs it out, sets its expiry), then waits until this process
   * has heard it announced (up to HEARD_WITHIN_MS): every process is signalled at the same commit, so once the
   * caller is answered, the others have dropped the principal too, within PostgreSQL's delivery time.
   */
  async change<T>(id: string, apply: () => Promise<T>): Promise<T> {
    let heard!: () => void;
    const announced = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const waiters = this.waiting.get(id) ?? new Set();
    waiters.add(heard);
    this.waiting.set(id, waiters);
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await apply();
      await Promise.race([
        announced,
        new Promise((resolve) => {
          timer = setTimeout(resolve, HEARD_WITHIN_MS);
        }),
      ]);
      return result;
    } finally {
      clearTimeout(timer);
      waiters.delete(heard);
      if (waiters.size === 0 && this.waiting.get(id) === waiters) this.waiting.delete(id);
    }
  }

  /** The trusted entry of a token, if any. */
  get(tokenHash: string, now: number): CachedPrincipal | undefined {
    const entry = this.entries.get(tokenHash);
    if (entry && entry.trustedUntil <= now) {
      this.forget(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** A mark to take before reading a token's row, and give back to `set`. */
  mark(): number {
    return this.generation;
  }

  /** Caches what was read since `mark`, unless a change was announced meanwhile (it may concern this row). */
  set(tokenHash: string, entry: Omit<CachedPrincipal, 'trustedUntil'>, mark: number, now: number): void {
    if (mark !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.forget(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { ...entry, trustedUntil: now + CACHED_PRINCIPAL_MS });
    this.hashes.set(principalId(entry.principal), tokenHash);
  }

  private forget(tokenHash: string): void {
    const entry = this.entries.get(tokenHash);
    this.entries.delete(tokenHash);
    if (entry) this.hashes.delete(principalId(entry.principal));
  }

  /** Drops the principal `id`, or everything (on (re)connection, when announcements may have been missed, or `*`). */
  private drop(id: string | undefined): void {
    this.generation += 1;
    if (id === undefined) {
      this.entries.clear();
      this.hashes.clear();
      for (const waiters of this.waiting.values()) for (const heard of waiters) heard();
      return;
    }
    const hash = this.hashes.get(id);
    if (hash) this.forget(hash);
    for (const heard of this.waiting.get(id) ?? []) heard();
  }
}
