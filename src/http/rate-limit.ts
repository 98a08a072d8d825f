import type { Context, Next } from 'koa';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../db/database.js';
import { RateLimitedError } from '../lib/errors.js';
import type { Logger } from '../lib/logger.js';
import { type Principal, principalId } from '../modules/auth/principal.js';
import { SharedWindows } from '../modules/auth/shared-window.js';
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
    'RateLimit-Limit': String(limit),
    'RateLimit-Remaining': '0',
    'RateLimit-Reset': String(retryAfter),
  });
  return error;
}

/**
 * The per-principal limit (per API key, per session): a fixed window in PostgreSQL, so every API process
 * behind a load balancer counts against the same budget, counted in batches (src/modules/auth/shared-window.ts).
 */
export class PrincipalRateLimit {
  private readonly windows: SharedWindows;

  constructor(
    db: Db,
    private readonly settings: RateLimitSettings,
    logger: Logger,
  ) {
    this.windows = new SharedWindows(db, { keyPrefix: 'p', points: settings.points, windowMs: settings.windowSeconds * 1000 }, logger);
  }

  /** Counts the request: sets the RateLimit headers, or throws 429 rate_limited when the window's budget is spent. */
  async apply(ctx: Context, principal: Principal): Promise<void> {
    const count = await this.windows.count(principalId(principal));
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
    storeClient: db,
    storeType: 'knex',
    tableName: 'rate_limits',
    tableCreated: true,
    points: perAddress.points,
    duration: perAddress.windowSeconds,
    keyPrefix: 'ip',
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
