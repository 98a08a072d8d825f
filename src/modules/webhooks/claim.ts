import type { Db } from '../../db/database.js';
import type { PlatformWebhookRow } from './rows.js';

/** A stored platform webhook as the intake worker holds it (`attempts`: those that failed before this one). */
export type StoredWebhook = Pick<PlatformWebhookRow, 'id' | 'platform' | 'sourceAccountId' | 'body' | 'attempts'>;

/** The next webhooks of one intake key (an account, or a platform), in the order received. */
export interface Batch {
  key: string;
  webhooks: StoredWebhook[];
}

/** The first key of the claims' advisory locks (the second is the intake key's hash). */
const CLAIM_LOCKS = 0x1a7e;

/**
 * What a key must show to be claimed: nothing under a live lease (another worker is on it), and its first
 * webhook due (a retry of the head holds back those after it, to keep their order).
 */
const KEY_FREE = `
  bool_and(locked_until IS NULL OR locked_until < now())
  AND (array_agg(next_attempt_at ORDER BY id))[1] <= now()`;

/**
 * Leases the next webhooks (up to `batchSize` each, oldest first) of up to `keys` intake keys that nobody holds.
 * Why not FOR UPDATE SKIP LOCKED on the rows alone: two claims side by side would each take rows of one key (the
 * second skipping the first's), and their workers would process them out of order. The skipping is per key
 * instead: a claim holds a transaction lock on each key it looks at (pg_try_advisory_xact_lock; a key locked by
 * another claim is skipped), and reads whether the key is free only once it holds that lock, in a statement of
 * its own (its snapshot then sees the leases of any claim that committed before).
 */
export async function claimBatches(db: Db, keys: number, batchSize: number, leaseSeconds: number): Promise<Batch[]> {
  if (keys <= 0) return [];
  return db.transaction(async (trx) => {
    const { rows: candidates } = (await trx.raw(
      `SELECT intake_key AS key FROM platform_webhooks WHERE processed_at IS NULL AND failed_at IS NULL
       GROUP BY intake_key HAVING ${KEY_FREE} ORDER BY min(id) LIMIT ?`,
      [keys],
    )) as { rows: Array<{ key: string }> };
    if (candidates.length === 0) return [];
    const { rows: locked } = (await trx.raw(`SELECT key FROM unnest(?::text[]) AS key WHERE pg_try_advisory_xact_lock(?, hashtext(key))`, [
      candidates.map(({ key }) => key),
      CLAIM_LOCKS,
    ])) as { rows: Array<{ key: string }> };
    if (locked.length === 0) return [];
    const { rows } = (await trx.raw(
      `
      WITH free AS (
        SELECT intake_key FROM platform_webhooks
        WHERE intake_key = ANY(?::text[]) AND processed_at IS NULL AND failed_at IS NULL
        GROUP BY intake_key HAVING ${KEY_FREE}
      ), next AS (
        SELECT w.id FROM free CROSS JOIN LATERAL (
          SELECT id FROM platform_webhooks w
          WHERE w.intake_key = free.intake_key AND processed_at IS NULL AND failed_at IS NULL
          ORDER BY id LIMIT ? FOR UPDATE
        ) w
      )
      UPDATE platform_webhooks w SET locked_until = now() + make_interval(secs => ?)
      FROM next WHERE w.id = next.id
      RETURNING w.id, w.intake_key AS key, w.platform, w.source_account_id AS "sourceAccountId", w.body, w.attempts`,
      [locked.map(({ key }) => key), batchSize, leaseSeconds],
    )) as { rows: Array<StoredWebhook & { key: string }> };
    const batches = new Map<string, StoredWebhook[]>();
    for (const { key, ...webhook } of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
      webhook.id = String(webhook.id);
      batches.set(key, [...(batches.get(key) ?? []), webhook]);
    }
    return [...batches].map(([key, webhooks]) => ({ key, webhooks }));
  });
}

/** Extends the leases of webhooks still held (those processed since have none to extend). */
export async function renewLeases(db: Db, ids: string[], leaseSeconds: number): Promise<void> {
  await db<PlatformWebhookRow>('platformWebhooks')
    .whereIn('id', ids)
    .whereNull('processedAt')
    .whereNotNull('lockedUntil')
    .update({ lockedUntil: db.raw('now() + make_interval(secs => ?)', [leaseSeconds]) });
}

/** Gives back webhooks held and not processed (a batch stopped at a failure): the next claim takes them in order. */
export async function releaseLeases(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0)
    await db<PlatformWebhookRow>('platformWebhooks').whereIn('id', ids).whereNull('processedAt').update({ lockedUntil: null });
}
