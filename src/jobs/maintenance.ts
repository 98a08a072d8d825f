import { areas } from '../modules/index.js';
import type { AnyArea } from '../modules/area.js';
import { purgeSettledWrites } from '../modules/platform-writes/records.js';
import type { Services } from '../services.js';

export const PURGE_JOB = 'maintenance.purgeExpired';

/**
 * Forgets what has expired: the request pipeline's idempotency records, the platform-write
 * ledger's old entries, and what each area purges of its own (src/modules/<area>/index.ts, `purge`).
 */
export async function purgeExpired(services: Services): Promise<void> {
  const { db, logger } = services;
  const shared = async () => ({
    idempotency: await db('idempotencyKeys').where('expiresAt', '<', db.fn.now()).delete(),
    platformWrites: await purgeSettledWrites(db),
  });
  const counts = await Promise.all([shared(), ...(areas as readonly AnyArea[]).map((area) => area.purge?.(services) ?? {})]);
  logger.info(Object.assign({}, ...counts), 'purged expired records');
}
