import { LRUCache } from 'lru-cache';
import type { WebhookAccounts } from '../../platforms/capabilities/webhooks.js';
import type { AdapterAccount } from '../../platforms/types.js';

/** How long what a signature was checked against is kept. */
const KEPT_MS = 10_000;
/** Lookups kept at most (each an account's credentials, or the accounts with one platform id). */
const MAX_KEPT = 10_000;

type Found = AdapterAccount | null | AdapterAccount[];

/**
 * What platform webhooks' signatures are checked against (an account's credentials, the accounts with a platform
 * id), kept for KEPT_MS: a busy account's webhooks would otherwise read the same row for each one. `kept` answers
 * from what is kept (reading what is not); `fresh` always reads, and keeps what it read. A request refused on
 * what was kept is checked again on fresh lookups before it is refused (src/modules/webhooks/receive.ts), so a
 * secret set a moment ago is never refused. One replaced a moment ago may still be accepted for KEPT_MS: its
 * events are stored and handled as the account's, which is still connected, or ignored as disconnected.
 */
export class VerificationLookups {
  private readonly found = new LRUCache<string, Promise<Found>>({ max: MAX_KEPT, ttl: KEPT_MS });
  readonly kept: WebhookAccounts;
  readonly fresh: WebhookAccounts;

  constructor(private readonly read: Required<WebhookAccounts>) {
    this.kept = this.lookups(false);
    this.fresh = this.lookups(true);
  }

  private lookups(fresh: boolean): WebhookAccounts {
    return {
      credentialsOf: (accountId) =>
        this.lookUp(`account:${accountId}`, () => this.read.credentialsOf(accountId), fresh) as Promise<AdapterAccount | null>,
      withPlatformAccountId: (platform, id) =>
        this.lookUp(`platform:${platform}:${id}`, () => this.read.withPlatformAccountId(platform, id), fresh) as Promise<AdapterAccount[]>,
    };
  }

  /** What is kept under `key` (requests asking at once share one read), or, `fresh`, a new read kept in its place. */
  private lookUp(key: string, read: () => Promise<Found>, fresh: boolean): Promise<Found> {
    const kept = fresh ? undefined : this.found.get(key);
    if (kept) return kept;
    const reading = read();
    this.found.set(key, reading);
    // A failed read is not kept: the next request reads again.
    reading.catch(() => {
      if (this.found.get(key) === reading) this.found.delete(key);
    });
    return reading;
  }
}
