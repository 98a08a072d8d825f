import type { Knex } from 'knex';
import type { InsightsPeriod } from '../../platforms/capabilities/insights.js';
import type { AnalyticsCacheRow } from './rows.js';

/**
 * How long read figures are kept, by window: a day's figures are settled by the platform within hours; a week's or
 * 28 days' change proportionally less in an hour. A warm read makes no platform call.
 */
export const TTL_SECONDS: Record<InsightsPeriod | 'lifetime', number> = { day: 3600, week: 3 * 3600, days_28: 6 * 3600, lifetime: 3600 };

export type Cached<T> = Pick<AnalyticsCacheRow<T>, 'figures' | 'updatedAt'>;

/** The account's cached figures under these keys that have not expired. */
export async function readCached<T>(db: Knex, accountId: string, keys: string[]): Promise<Map<string, Cached<T>>> {
  if (keys.length === 0) return new Map();
  const rows = (await db('analyticsCache')
    .where({ accountId })
    .whereIn('key', keys)
    .where('expiresAt', '>', new Date())
    .select('key', 'figures', 'updatedAt')) as Array<Pick<AnalyticsCacheRow<T>, 'key' | 'figures' | 'updatedAt'>>;
  return new Map(rows.map((row) => [row.key, { figures: row.figures, updatedAt: row.updatedAt }]));
}

/**
 * Keeps figures just read at `now` (the time the answer then states); a concurrent read of the same key replaces
 * them (both are the platform's answer).
 */
export async function writeCached(
  db: Knex,
  accountId: string,
  entries: Array<{ key: string; figures: unknown; ttlSeconds: number }>,
  now: Date,
): Promise<void> {
  if (entries.length === 0) return;
  await db('analyticsCache')
    .insert(
      entries.map(({ key, figures, ttlSeconds }) => ({
        accountId,
        key,
        figures: JSON.stringify(figures),
        updatedAt: now,
        expiresAt: new Date(now.getTime() + ttlSeconds * 1000),
      })),
    )
    .onConflict(['accountId', 'key'])
    .merge();
}

/** Forgets expired figures (the purge job). */
export async function purgeCache(db: Knex): Promise<number> {
  return db<AnalyticsCacheRow>('analyticsCache').where('expiresAt', '<', new Date()).delete();
}
