import type { Knex } from 'knex';
import { PlatformError } from '../../platforms/errors.js';
import type { AnalyticsThrottleRow } from './rows.js';

/**
 * Respects a platform's throttling of an account: the wait it gave (Meta's usage headers, Retry-After) is kept,
 * and until it has passed no figure of the account is asked of the platform; the caller answers 429 with the
 * time left, and cached figures are still answered. `read` is the platform call.
 */
export async function unlessThrottled<T>(db: Knex, accountId: string, read: () => Promise<T>): Promise<T> {
  const throttle = await db<AnalyticsThrottleRow>('analyticsThrottles')
    .where({ accountId })
    .where('until', '>', new Date())
    .first('until', 'message');
  if (throttle) {
    throw new PlatformError('rate_limited', `${throttle.message} (the platform asked not to be called for this account until then)`, {
      retryAt: throttle.until,
    });
  }
  try {
    return await read();
  } catch (error) {
    if (error instanceof PlatformError && error.kind === 'rate_limited' && error.details.retryAt) {
      await db<AnalyticsThrottleRow>('analyticsThrottles')
        .insert({ accountId, until: error.details.retryAt, message: error.message })
        .onConflict('accountId')
        .merge();
    }
    throw error;
  }
}

/** Forgets throttles whose wait has passed (the purge job). */
export async function purgeThrottles(db: Knex): Promise<number> {
  return db<AnalyticsThrottleRow>('analyticsThrottles').where('until', '<', new Date()).delete();
}
