import type { Knex } from 'knex';

/** A platform metric the platform refused as invalid at an API version: not asked again at that version. */
export interface DeadMetric {
  metric: string;
  refusal: string;
  foundAt: Date;
}

export async function deadMetrics(db: Knex, platform: string, apiVersion: string): Promise<Map<string, DeadMetric>> {
  const rows = (await db('analyticsDeadMetrics').where({ platform, apiVersion }).select('metric', 'refusal', 'foundAt')) as DeadMetric[];
  return new Map(rows.map((row) => [row.metric, row]));
}

export async function rememberDeadMetric(db: Knex, platform: string, apiVersion: string, metric: string, refusal: string): Promise<void> {
  await db('analyticsDeadMetrics')
    .insert({ platform, apiVersion, metric, refusal })
    .onConflict(['platform', 'apiVersion', 'metric'])
    .ignore();
}
