import type { Knex } from 'knex';
import { onePer } from '../../lib/memo.js';
import type { Services } from '../../services.js';
import { compileTrigger, type Matcher } from './matcher.js';
import type { AutomationRecord } from './rows.js';

/** NOTIFY'd in the transaction of every change to automations: each process's engine forgets what it cached. */
export const AUTOMATIONS_CHANNEL = 'socialgate_automations';

/** An active automation, its trigger compiled. */
export interface Armed {
  automation: AutomationRecord;
  matcher: Matcher;
}

/** Accounts whose automations are kept at most; past that the cache starts again. */
const MAX_ACCOUNTS = 10_000;

/**
 * The active automations of each account, compiled and in the order they are tried (highest `priority`, then the
 * oldest), kept in memory so that an account with 100 of them costs no query per message. Any change to any
 * automation forgets everything (in this process at once, in the others on the NOTIFY). It is used only while
 * the process listens for those NOTIFYs (its worker says so); otherwise every read goes to the database.
 */
export class AutomationCache {
  private readonly byAccount = new Map<string, Armed[]>();
  /** Bumped by each invalidation: a read that began before one does not store what it read. */
  private generation = 0;
  private listening = false;

  /** The process hears changes made elsewhere (`true`), or may have missed some (`false`): forget everything. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate();
  }

  invalidate(): void {
    this.generation += 1;
    this.byAccount.clear();
  }

  async forAccount(db: Knex, accountId: string): Promise<Armed[]> {
    const cached = this.listening ? this.byAccount.get(accountId) : undefined;
    if (cached) return cached;
    const generation = this.generation;
    const rows = (await db('automations')
      .where({ active: true })
      .whereRaw('account_ids @> ARRAY[?]::text[]', [accountId])
      .orderBy([{ column: 'priority', order: 'desc' }, { column: 'createdAt' }, { column: 'id' }])) as AutomationRecord[];
    const armed = rows.map((automation) => ({ automation, matcher: compileTrigger(automation) }));
    if (this.listening && generation === this.generation) {
      if (this.byAccount.size >= MAX_ACCOUNTS) this.byAccount.clear();
      this.byAccount.set(accountId, armed);
    }
    return armed;
  }
}

/** The cache of this process's service. */
export const automationCache = onePer((_services: Services) => new AutomationCache());

/** Tells every process that automations changed, when `trx` commits. */
export async function announceChange(trx: Knex): Promise<void> {
  await trx.raw('SELECT pg_notify(?, ?)', [AUTOMATIONS_CHANNEL, '']);
}
