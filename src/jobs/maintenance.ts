import type { Services } from '../services.js';

/** Forgets what has expired: sessions, idempotency records and rate-limit windows. */
export async function purgeExpired({ db, logger }: Services): Promise<void> {
  const [sessions, idempotency, rateLimits] = await Promise.all([
    db('sessions').where('expiresAt', '<', db.raw("now() - interval '7 days'")).delete(),
    db('idempotencyKeys').where('expiresAt', '<', db.fn.now()).delete(),
    db('rateLimits').where('expire', '<', Date.now()).delete(),
  ]);
  logger.info({ sessions, idempotency, rateLimits }, 'purged expired records');
}
