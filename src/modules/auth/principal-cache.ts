import { listeningName, type NotificationListener } from '../../lib/listener.js';
import type { Logger } from '../../lib/logger.js';
import type { Principal } from './principal.js';
import { principalId } from './principal.js';

/**
 * The channel on which triggers announce, by id, every change that can end a token's validity (migration
 * 202611240104_auth_announce_principal_changes).
 */
const CHANNEL = 'socialgate_principals';

/** The channel on which each process's listener answers every announcement once it has dropped that principal. */
const HEARD_CHANNEL = 'socialgate_principals_heard';

/**
 * How long a principal is trusted without reading its row again. Revocations are announced (NOTIFY) and drop
 * it at once everywhere; this bounds what a missed announcement can cost (while the listening connection is
 * lost).
 */
export const CACHED_PRINCIPAL_MS = 10_000;

/** How long a change waits for every process to have heard it before its request is answered anyway. */
const HEARD_WITHIN_MS = 2_000;

/** Beyond this many cached tokens the oldest are dropped: a cache of the busy ones, not of every token. */
const MAX_ENTRIES = 10_000;

/** A change waiting until every listener that was listening before it committed has dropped its principal. */
interface Waiter {
  /** The backend process ids of those listeners that have not said so yet. */
  pending: Set<number>;
  heard: () => void;
}

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
  /** The changes waiting to be heard everywhere, by principal id. */
  private readonly waiting = new Map<string, Set<Waiter>>();
  private unlisten: (() => Promise<void>) | undefined;

  private constructor(
    /** The process's listener: a change finds every process that caches principals by its name. */
    private readonly listener: NotificationListener,
    private readonly logger: Logger,
  ) {}

  /**
   * Subscribes to the announcements on the process's listener, before the listener starts: a listener named as
   * listening (`listeningName`) then hears them, in every process.
   */
  static async listening(listener: NotificationListener, logger: Logger): Promise<PrincipalCache> {
    const cache = new PrincipalCache(listener, logger);
    cache.unlisten = await listener.listen([CHANNEL, HEARD_CHANNEL], (channel, id = '', sender = 0) => {
      if (channel === HEARD_CHANNEL) cache.heard(id, sender);
      else cache.announced(channel, id);
    });
    return cache;
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
  }

  /**
   * Makes a change to principal `id` (revokes it, logs it out, sets its expiry), then waits until every process
   * that was listening before it committed has dropped the principal and said so (up to HEARD_WITHIN_MS): once the
   * caller is answered, no process answers from what the change ended. A process that was not listening then
   * (its connection lost, or not started) forgets every principal when it (re)connects.
   */
  async change<T>(id: string, apply: () => Promise<T>): Promise<T> {
    let heard!: () => void;
    const everywhere = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const waiter: Waiter = { pending: await this.listeningProcesses(), heard };
    if (waiter.pending.size === 0) heard();
    const waiters = this.waiting.get(id) ?? new Set();
    waiters.add(waiter);
    this.waiting.set(id, waiters);
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await apply();
      await Promise.race([
        everywhere,
        new Promise((resolve) => {
          timer = setTimeout(resolve, HEARD_WITHIN_MS);
        }),
      ]);
      return result;
    } finally {
      clearTimeout(timer);
      waiters.delete(waiter);
      if (waiters.size === 0 && this.waiting.get(id) === waiters) this.waiting.delete(id);
    }
  }

  /**
   * The backend processes of the listeners of every process on this database, this one's included: each of them
   * will hear a change committed after this read. None while this process's own listener is lost: the others then
   * drop the principal within PostgreSQL's delivery time, unconfirmed.
   */
  private async listeningProcesses(): Promise<Set<number>> {
    try {
      const { rows } = await this.listener.query(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1',
        [listeningName(this.listener.name)],
      );
      return new Set(rows.map((row: { pid: number }) => row.pid));
    } catch (error) {
      this.logger.warn({ err: error }, 'principal-cache: cannot find the listening processes; not waiting for them');
      return new Set();
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

  /**
   * An announcement (no channel: (re)connected, announcements may have been missed; `*`: many rows went at once)
   * drops what it concerns, then says so to every process, on the listening connection: it names the sender.
   */
  private announced(channel: string | null, id: string): void {
    this.drop(channel && id !== '*' ? id : undefined);
    if (channel === null) return;
    this.listener.query('SELECT pg_notify($1, $2)', [HEARD_CHANNEL, id]).catch((error: unknown) => {
      this.logger.debug({ err: error }, 'principal-cache: could not say an announcement was heard');
    });
  }

  /** Listener `sender` has dropped principal `id` (or, `*`, every principal). */
  private heard(id: string, sender: number): void {
    const concerned = id === '*' ? [...this.waiting.values()] : [this.waiting.get(id) ?? new Set<Waiter>()];
    for (const waiters of concerned) {
      for (const waiter of waiters) {
        if (waiter.pending.delete(sender) && waiter.pending.size === 0) waiter.heard();
      }
    }
  }

  /** Drops the principal `id`, or everything (on (re)connection, when announcements may have been missed, or `*`). */
  private drop(id: string | undefined): void {
    this.generation += 1;
    if (id === undefined) {
      this.entries.clear();
      this.hashes.clear();
      return;
    }
    const hash = this.hashes.get(id);
    if (hash) this.forget(hash);
  }
}
