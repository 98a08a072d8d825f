import type { Services } from '../services.js';

/**
 * Forgets what has expired: sessions, idempotency records, rate-limit windows, deliveries older than 30 days,
 * and pending connections (they hold a user token no account owns).
 */
export async function purgeExpired({ db, logger }: Services): Promise<void> {
  const [sessions, idempotency, rateLimits, deliveries, pendingConnections] = await Promise.all([
    db('sessions').where('expiresAt', '<', db.raw("now() - interval '7 days'")).delete(),
    db('idempotencyKeys').where('expiresAt', '<', db.fn.now()).delete(),
    db('rateLimits').where('expire', '<', Date.now()).delete(),
    db('deliveries').where('createdAt', '<', db.raw("now() - interval '30 days'")).whereIn('status', ['succeeded', 'failed']).delete(),
    db('pendingConnections').where('expiresAt', '<', db.fn.now()).delete(),
  ]);
  logger.info({ sessions, idempotency, rateLimits, deliveries, pendingConnections }, 'purged expired records');
}
