import { PlatformError } from '../../platforms/errors.js';
import type { Services } from '../../services.js';
import { recordPlatformOutcome } from './accounts.js';
import { AccountRow } from './models.js';
import { adapterAccount } from './read.js';

export const PLATFORM_CHECK_JOB = 'accounts.checkPlatformSide';

/** Accounts checked per run, least recently checked first; the next run goes on where this one stopped. */
const BATCH = 200;

/**
 * Asks each platform that can tell whether it still sends us its connected accounts' events (a bot's webhook
 * is still ours), and records the answer on the account: `GET /accounts/health` shows a problem as degraded,
 * and connecting the account again repairs the platform side and clears it. A refused token is recorded as
 * any platform call's is (the account needs reconnection); a passing failure leaves the last answer standing.
 */
export async function checkPlatformSides(services: Services): Promise<number> {
  const { db, secrets, platforms } = services;
  const checkable = platforms.all().filter((adapter) => adapter.webhooks?.subscriptionProblem);
  if (checkable.length === 0) return 0;
  const due = await AccountRow.query(db)
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
    const check = platforms.get(row.platform)?.webhooks?.subscriptionProblem;
    if (!check) continue;
    try {
      const problem = await check(adapterAccount(row, secrets));
      await AccountRow.query(db).patch({ platformProblem: problem, platformCheckedAt: new Date() }).where({ id: row.id });
      await recordPlatformOutcome(db, row.id, null);
      checked += 1;
    } catch (error) {
      if (!(error instanceof PlatformError)) throw error;
      await recordPlatformOutcome(db, row.id, error);
    }
  }
  return checked;
}
