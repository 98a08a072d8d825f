import type { Context, Next } from 'koa';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/database.js';
import { RateLimitedError } from '../lib/errors.js';
import type { CountingWindow, WindowCount } from '../modules/auth/authenticate.js';
import type { RequestState } from './state.js';

export interface RateLimitSettings {
  points: number;
  windowSeconds: number;
}

function setHeaders(ctx: Context, limit: number, remaining: number, msBeforeNext: number): void {
  ctx.set('RateLimit-Limit', String(limit));
  ctx.set('RateLimit-Remaining', String(Math.max(0, remaining)));
  ctx.set('RateLimit-Reset', String(Math.ceil(msBeforeNext / 1000)));
}

function rateLimited(limit: number, msBeforeNext: number): RateLimitedError {
  const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
  const error = new RateLimitedError(retryAfter);
  Object.assign(error.extra.headers ?? {}, {
    'RateLimit-Limit': String(limit), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(retryAfter),
  });
  return error;
}

/**
 * The per-principal limit (per API key, per session): a fixed window in PostgreSQL, so every API process
 * behind a load balancer counts against the same budget. It is counted by the statement that authenticates
 * (src/modules/auth/authenticate.ts), one round trip for both; this decides on the count.
 */
export class PrincipalRateLimit {
  readonly window: CountingWindow;

  constructor(private readonly settings: RateLimitSettings) {
    this.window = { keyPrefix: 'p', points: settings.points, windowMs: settings.windowSeconds * 1000 };
  }

  /** Sets the RateLimit headers, or throws 429 rate_limited when the window's budget is spent. */
  apply(ctx: Context, count: WindowCount): void {
    const msBeforeNext = Math.max(count.expire - Date.now(), 0);
    if (count.consumed > this.settings.points) throw rateLimited(this.settings.points, msBeforeNext);
    setHeaders(ctx, this.settings.points, this.settings.points - count.consumed, msBeforeNext);
  }
}

/**
 * The limit of public routes, per client address, in the same table. Requests with a principal were counted
 * when they were authenticated (PrincipalRateLimit) and pass.
 */
export function rateLimitMiddleware(db: Db, perAddress: RateLimitSettings) {
  const limiter = new RateLimiterPostgres({
    storeClient: db, storeType: 'knex', tableName: 'rate_limits', tableCreated: true,
    points: perAddress.points, duration: perAddress.windowSeconds, keyPrefix: 'ip',
    // Once an address is over its budget, refuse it from memory until the window ends instead of asking the database.
    inMemoryBlockOnConsumed: perAddress.points,
    // While the database is unreachable, count in this process rather than fail every request (health included).
    insuranceLimiter: new RateLimiterMemory({ points: perAddress.points, duration: perAddress.windowSeconds, keyPrefix: 'ip' }),
  });

  return async (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    if (!ctx.state.principal) {
      try {
        const result = await limiter.consume(ctx.ip);
        setHeaders(ctx, perAddress.points, result.remainingPoints, result.msBeforeNext);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        throw rateLimited(perAddress.points, rejection.msBeforeNext);
      }
    }
    await next();
  };
}
