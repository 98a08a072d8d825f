import type { ModelClass } from 'objection';
import { PlatformError } from '../../platforms/errors.js';
import type { AdapterAccount, PlatformAdapter } from '../../platforms/types.js';
import type { Services } from '../../services.js';
import { recordPlatformOutcome } from './accounts.js';
import { AccountRow, AdAccountRow, type Connection } from './models.js';
import { adapterAccount } from './read.js';

export const PLATFORM_CHECK_JOB = 'accounts.checkPlatformSide';

/** Accounts checked per run, least recently checked first; the next run goes on where this one stopped. */
const BATCH = 200;

/** How one kind of connection is checked on a platform that can tell, and what of the answer is kept. */
interface Check {
  model: ModelClass<Connection>;
  /** The platform's answer about one, as the columns to keep; undefined where the platform cannot tell. */
  check(adapter: PlatformAdapter): ((account: AdapterAccount) => Promise<Partial<AccountRow> | Partial<AdAccountRow>>) | undefined;
}

const CHECKS: Check[] = [
  // Whether the platform still sends us the account's events (a bot's webhook is still ours).
  {
    model: AccountRow as ModelClass<Connection>,
    check: ({ webhooks }) => {
      const problemOf = webhooks?.subscriptionProblem;
      return problemOf && (async (account) => ({ platformProblem: await problemOf(account) }));
    },
  },
  // The ad account read again: its token still works and reaches it, and its status and name are the platform's now.
  {
    model: AdAccountRow as ModelClass<Connection>,
    check: ({ ads }) =>
      ads &&
      (async (account) => {
        const { platformStatus, name } = await ads.adAccount(account);
        return { platformStatus, name };
      }),
  },
];

/**
 * Asks each platform that can tell about its connected accounts and ad accounts (is a bot's webhook still ours,
 * what is an ad account's status), and records the answer on it: `GET /accounts/health` shows an account's
 * problem as degraded, and connecting it again repairs the platform side and clears it. A refused token is
 * recorded as any platform call's is (it needs reconnection); a passing failure leaves the last answer standing.
 */
export async function checkPlatformSides(services: Services): Promise<number> {
  let checked = 0;
  for (const kind of CHECKS) checked += await checkKind(services, kind);
  return checked;
}

async function checkKind(services: Services, { model, check }: Check): Promise<number> {
  const { db, secrets, platforms } = services;
  const checkable = platforms.all().filter((adapter) => check(adapter));
  if (checkable.length === 0) return 0;
  const due = await model
    .query(db)
    .where({ status: 'connected' })
    .whereIn(
      'platform',
      checkable.map((adapter) => adapter.id),
    )
    .whereNotNull('credentialsCiphertext')
    .orderByRaw('platform_checked_at ASC NULLS FIRST')
    .limit(BATCH);
  let checked = 0;
  for (const row of due) {
    const adapter = platforms.get(row.platform);
    const ask = adapter && check(adapter);
    if (!ask) continue;
    try {
      const found = await ask(adapterAccount(row, secrets));
      await db(model.tableName)
        .where({ id: row.id })
        .update({ ...found, platformCheckedAt: new Date() });
      await recordPlatformOutcome(db, row.id, null);
      checked += 1;
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      await recordPlatformOutcome(db, row.id, error);
    }
  }
  return checked;
}
