import type { Context, Next } from 'koa';
import type { Db } from '../db/database.js';
import { RateLimitedError } from '../lib/errors.js';
import type { Config } from '../config.js';
import type { Logger } from '../lib/logger.js';
import { SharedWindows, type WindowSettings } from '../modules/auth/shared-window.js';
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
 * A fixed window per key in PostgreSQL, so every API process behind a load balancer counts against the same
 * budget, counted in batches (src/modules/auth/shared-window.ts): per principal (API key, session) and, on
 * public routes, per client address.
 */
export class RateLimit {
  private readonly windows: SharedWindows;

  constructor(
    db: Db,
    private readonly settings: RateLimitSettings,
    window: Pick<WindowSettings, 'keyPrefix' | 'refuseFromMemory'>,
    logger: Logger,
  ) {
    this.windows = new SharedWindows(db, { ...window, points: settings.points, windowMs: settings.windowSeconds * 1000 }, logger);
  }

  /** Counts the request of `key`: sets the RateLimit headers, or throws 429 rate_limited when the window's budget is spent. */
  async apply(ctx: Context, key: string): Promise<void> {
    const count = await this.windows.count(key);
    const msBeforeNext = Math.max(count.expire - Date.now(), 0);
    if (count.consumed > this.settings.points) throw rateLimited(this.settings.points, msBeforeNext);
    setHeaders(ctx, this.settings.points, this.settings.points - count.consumed, msBeforeNext);
  }

  stop(): Promise<void> {
    return this.windows.stop();
  }
}

/** The operations that receive platforms' webhooks, which have a per-address budget of their own. */
const PLATFORM_WEBHOOK_OPERATIONS = new Set(['verifyPlatformWebhook', 'receivePlatformWebhook']);

/**
 * The process's rate limits, all in the same table: per principal (API key, session), and on public routes per
 * client address. Platforms' webhooks are counted apart, against a budget of their own (`platformWebhooks`): a
 * platform delivers every message people write to every account of the service from a few addresses, and must
 * not be refused for what a person at one address may ask of the API.
 */
export class RateLimits {
  readonly perPrincipal: RateLimit;
  readonly perAddress: RateLimit;
  readonly platformWebhooks: RateLimit;

  constructor(db: Db, config: Pick<Config, 'rateLimit' | 'publicRateLimit' | 'platformWebhookRateLimit'>, logger: Logger) {
    this.perPrincipal = new RateLimit(db, config.rateLimit, { keyPrefix: 'p' }, logger);
    this.perAddress = new RateLimit(db, config.publicRateLimit, { keyPrefix: 'ip', refuseFromMemory: true }, logger);
    this.platformWebhooks = new RateLimit(db, config.platformWebhookRateLimit, { keyPrefix: 'ipw', refuseFromMemory: true }, logger);
  }

  /** Writes the requests counted and not written yet: after the HTTP server has closed, before the pool does. */
  async stop(): Promise<void> {
    await Promise.all([this.perPrincipal, this.perAddress, this.platformWebhooks].map((limit) => limit.stop()));
  }
}

/** Public routes count per client address. Requests with a principal were counted when they were authenticated. */
export function rateLimitMiddleware(limits: RateLimits) {
  return (ctx: Context & { state: RequestState }, next: Next): Promise<void> => {
    if (ctx.state.principal) return next();
    const platformWebhook = PLATFORM_WEBHOOK_OPERATIONS.has(ctx.state.operation?.operationId ?? '');
    return (platformWebhook ? limits.platformWebhooks : limits.perAddress).apply(ctx, ctx.ip).then(next);
  };
}
