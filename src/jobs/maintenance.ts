import { areas } from '../modules/index.js';
import type { AnyArea } from '../modules/area.js';
import type { Services } from '../services.js';

export const PURGE_JOB = 'maintenance.purgeExpired';

/**
 * Forgets what has expired: the request pipeline's idempotency records and rate-limit windows, and what each
 * area purges of its own (src/modules/<area>/index.ts, `purge`).
 */
export async function purgeExpired(services: Services): Promise<void> {
  const { db, logger } = services;
  const pipeline = async () => ({
    idempotency: await db('idempotencyKeys').where('expiresAt', '<', db.fn.now()).delete(),
    rateLimits: await db('rateLimits').where('expire', '<', Date.now()).delete(),
  });
  const counts = await Promise.all([pipeline(), ...(areas as readonly AnyArea[]).map((area) => area.purge?.(services) ?? {})]);
  logger.info(Object.assign({}, ...counts), 'purged expired records');
}
