import type { ModelClass } from 'objection';
import { PlatformError } from '../../platforms/errors.js';
import type { Services } from '../../services.js';
import { recordPlatformOutcome } from './accounts.js';
import { CONNECTION_MODELS, type Connection } from './models.js';
import { adapterAccount } from './read.js';

export const REFRESH_JOB = 'accounts.refreshTokens';

/** Tokens are refreshed this long before they expire, so a post due at the edge still finds a valid token. */
const REFRESH_AHEAD_MS = 15 * 60 * 1000;

/**
 * Refreshes the tokens of connected accounts and ad accounts that expire soon. A refusal (the user revoked
 * access, the refresh token expired) marks it as needing reconnection and emits `account.needs_reconnection`;
 * a passing failure is recorded and retried on the next run. Each is locked while it refreshes, so two workers
 * never spend one rotating refresh token twice.
 */
export async function refreshExpiringTokens(services: Services): Promise<number> {
  let refreshed = 0;
  for (const model of CONNECTION_MODELS) refreshed += await refreshExpiring(services, model);
  return refreshed;
}

async function refreshExpiring(services: Services, model: ModelClass<Connection>): Promise<number> {
  const { db, secrets, platforms } = services;
  // Each platform refreshes at its own distance from expiry (a 60-day token days ahead, an hour's minutes ahead).
  const aheadOf = (platform: string) => platforms.get(platform)?.refreshAheadMs ?? REFRESH_AHEAD_MS;
  const refreshing = platforms.all().filter((adapter) => adapter.refresh);
  if (refreshing.length === 0) return 0;
  const due = await model
    .query(db)
    .where({ status: 'connected' })
    .whereNotNull('tokenExpiresAt')
    .where((query) => {
      for (const adapter of refreshing) {
        query.orWhere((one) =>
          one.where({ platform: adapter.id }).where('tokenExpiresAt', '<', new Date(Date.now() + aheadOf(adapter.id))),
        );
      }
    })
    .orderBy('tokenExpiresAt')
    .limit(200);
  let refreshed = 0;
  for (const { id, platform } of due) {
    const adapter = platforms.get(platform);
    if (!adapter?.refresh) continue;
    let failure: PlatformError | null = null;
    await db.transaction(async (trx) => {
      const row = await model.query(trx).findById(id).forUpdate().skipLocked();
      if (!row || row.status !== 'connected' || !row.tokenExpiresAt || row.tokenExpiresAt.getTime() > Date.now() + aheadOf(platform))
        return;
      try {
        const { credentials, tokenExpiresAt } = await adapter.refresh!(adapterAccount(row, secrets).credentials);
        await model
          .query(trx)
          .patch({
            credentialsCiphertext: secrets.seal(JSON.stringify(credentials)),
            tokenExpiresAt,
            lastSuccessAt: new Date(),
            updatedAt: new Date(),
          })
          .where({ id });
        refreshed += 1;
      } catch (error) {
        if (!(error instanceof PlatformError)) throw error;
        failure = error;
      }
    });
    if (failure) await recordPlatformOutcome(db, id, failure);
  }
  return refreshed;
}
