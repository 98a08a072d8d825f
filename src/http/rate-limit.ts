import type { Context, Next } from 'koa';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/database.js';
import { RateLimitedError } from '../lib/errors.js';
import type { RequestState } from './state.js';

export interface RateLimitSettings {
  points: number;
  windowSeconds: number;
}

function setHeaders(ctx: Context, limit: number, result: RateLimiterRes): void {
  ctx.set('RateLimit-Limit', String(limit));
  ctx.set('RateLimit-Remaining', String(Math.max(0, result.remainingPoints)));
  ctx.set('RateLimit-Reset', String(Math.ceil(result.msBeforeNext / 1000)));
}

/**
 * Fixed-window limits kept in PostgreSQL, so every API process behind a load balancer counts against the
 * same budget: per API key, per session for session routes, per client address for public routes.
 */
export function rateLimitMiddleware(db: Db, perPrincipal: RateLimitSettings, perAddress: RateLimitSettings) {
  const make = (settings: RateLimitSettings, keyPrefix: string) => new RateLimiterPostgres({
    storeClient: db, storeType: 'knex', tableName: 'rate_limits', tableCreated: true,
    points: settings.points, duration: settings.windowSeconds, keyPrefix,
    // Once a key is over its budget, refuse it from memory until the window ends instead of asking the database.
    inMemoryBlockOnConsumed: settings.points,
    // While the database is unreachable, count in this process rather than fail every request (health included).
    insuranceLimiter: new RateLimiterMemory({ points: settings.points, duration: settings.windowSeconds, keyPrefix }),
  });
  const principalLimiter = make(perPrincipal, 'p');
  const addressLimiter = make(perAddress, 'ip');

  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    const principal = ctx.state.principal;
    const [limiter, settings, key] = principal
      ? [principalLimiter, perPrincipal, principal.kind === 'apiKey' ? principal.keyId : principal.sessionId]
      : [addressLimiter, perAddress, ctx.ip];
    try {
      setHeaders(ctx, settings.points, await limiter.consume(key));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      const error = new RateLimitedError(retryAfter);
      Object.assign(error.extra.headers ?? {}, {
        'RateLimit-Limit': String(settings.points), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(retryAfter),
      });
      throw error;
    }
    await next();
  };
}
