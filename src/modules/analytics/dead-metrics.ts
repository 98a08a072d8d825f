import type { Knex } from 'knex';
import type { DeadMetricRow } from './rows.js';

/** A platform metric the platform refused as invalid at an API version: not asked again at that version. */
export type DeadMetric = Pick<DeadMetricRow, 'metric' | 'refusal' | 'foundAt'>;

/**
 * Read from the database at most once a minute per process: a metric another process found dead meanwhile is
 * at worst asked once more here, refused, and remembered.
 */
const MEMO_MS = 60_000;
const memo = new Map<string, { readAt: number; metrics: Map<string, DeadMetric> }>();

export async function deadMetrics(db: Knex, platform: string, apiVersion: string): Promise<Map<string, DeadMetric>> {
  const key = `${platform}|${apiVersion}`;
  const known = memo.get(key);
  if (known && Date.now() - known.readAt < MEMO_MS) return known.metrics;
  const rows: DeadMetric[] = await db<DeadMetricRow>('analyticsDeadMetrics')
    .where({ platform, apiVersion })
    .select('metric', 'refusal', 'foundAt');
  const metrics = new Map(rows.map((row) => [row.metric, row]));
  memo.set(key, { readAt: Date.now(), metrics });
  return metrics;
}

export async function rememberDeadMetric(db: Knex, platform: string, apiVersion: string, metric: string, refusal: string): Promise<void> {
  await db<DeadMetricRow>('analyticsDeadMetrics')
    .insert({ platform, apiVersion, metric, refusal })
    .onConflict(['platform', 'apiVersion', 'metric'])
    .ignore();
  memo.delete(`${platform}|${apiVersion}`);
}
