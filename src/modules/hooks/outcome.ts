import type { Knex } from 'knex';
import { Batcher } from '../../lib/batcher.js';
import type { WebhookSettings } from './settings.js';
import type { AttemptOutcome } from './attempt.js';
import type { DeliveryRow, HookRow } from './models.js';
import { DELIVERIES_CHANNEL } from './dispatcher.js';
import { failOpenDeliveries } from './service.js';

const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/** The wait before the next attempt: the schedule's step with ±10 % jitter, or longer if the endpoint asked. */
export function nextDelaySeconds(settings: WebhookSettings, attemptsMade: number, retryAfter: number | null): number {
  const step = settings.retryScheduleSeconds[Math.min(attemptsMade - 1, settings.retryScheduleSeconds.length - 1)] ?? 0;
  const jittered = step * (0.9 + Math.random() * 0.2);
  return Math.max(jittered, Math.min(retryAfter ?? 0, MAX_RETRY_AFTER_SECONDS));
}

/**
 * Records an attempt and moves the delivery on, in one transaction: succeeded; retrying at the next step;
 * or failed (out of attempts, or 410 Gone — which also disables the hook). A hook failing for too long is disabled.
 */
export async function recordOutcome(
  db: Knex,
  delivery: Pick<DeliveryRow, 'id' | 'hookId'>,
  outcome: AttemptOutcome,
  settings: WebhookSettings,
): Promise<void> {
  if (outcome.errorClass === null) return recordSuccesses(db, [{ delivery, outcome }]);
  await db.transaction(async (trx) => {
    const current = (await trx('deliveries').where({ id: delivery.id }).forUpdate().first()) as DeliveryRow | undefined;
    // Deleted with its hook, or finished by another worker that took over an expired lease.
    if (!current || (current.status !== 'pending' && current.status !== 'retrying')) return;
    await trx('deliveryAttempts').insert({
      deliveryId: delivery.id,
      at: outcome.at,
      responseStatus: outcome.responseStatus,
      durationMs: outcome.durationMs,
      errorClass: outcome.errorClass,
      responseSnippet: outcome.responseSnippet,
    });
    const attemptCount = current.attemptCount + 1;
    const gone = outcome.responseStatus === 410;
    const exhausted = attemptCount >= current.maxAttempts;
    await trx('deliveries')
      .where({ id: delivery.id })
      .update(
        gone || exhausted
          ? { status: 'failed', attemptCount, nextAttemptAt: null, lockedUntil: null }
          : {
              status: 'retrying',
              attemptCount,
              lockedUntil: null,
              nextAttemptAt: new Date(Date.now() + nextDelaySeconds(settings, attemptCount, outcome.retryAfterSeconds) * 1000),
            },
      );
    const [hook] = (await trx('hooks')
      .where({ id: delivery.hookId })
      .update({ failingSince: trx.raw('coalesce(failing_since, ?)', [outcome.at]) })
      .returning(['failingSince', 'active'])) as Array<Pick<HookRow, 'active'> & { failingSince: Date }>;
    if (!hook?.active) return;
    const failingTooLong = Date.now() - hook.failingSince.getTime() >= settings.disableAfterFailingSeconds * 1000;
    if (gone || failingTooLong) {
      await trx('hooks')
        .where({ id: delivery.hookId })
        .update({ active: false, disabledReason: gone ? 'endpoint_gone' : 'failing_for_5_days', updatedAt: trx.fn.now() });
      await failOpenDeliveries(trx, delivery.hookId);
    }
  });
}

export interface Success {
  delivery: Pick<DeliveryRow, 'id' | 'hookId'>;
  outcome: AttemptOutcome;
}

/**
 * The common case, for any number of deliveries in one statement: each delivery closed and its attempt recorded
 * atomically, with no row lock held across round trips. A delivery already finished (another worker took over
 * an expired lease) or deleted is left alone. The same statement reads (without locking) the hooks' clocks; only
 * when a failure clock must stop or a last success is a minute old does a second one touch the hooks, so busy
 * hooks are neither a lock every delivery queues on nor a round trip per batch.
 */
export async function recordSuccesses(db: Knex, successes: Success[]): Promise<void> {
  if (successes.length === 0) return;
  const { rows } = (await db.raw(
    `
    WITH outcome AS (
      SELECT * FROM unnest(?::text[], ?::timestamptz[], ?::int[], ?::int[], ?::text[]) AS o(id, at, status, duration_ms, snippet)
    ), closed AS (
      UPDATE deliveries d SET status = 'succeeded', attempt_count = d.attempt_count + 1, delivered_at = o.at,
        next_attempt_at = NULL, locked_until = NULL
      FROM outcome o WHERE d.id = o.id AND d.status IN ('pending', 'retrying')
      RETURNING d.id, d.hook_id, o.at
    ), attempts AS (
      INSERT INTO delivery_attempts (delivery_id, at, response_status, duration_ms, error_class, response_snippet)
      SELECT o.id, o.at, o.status, o.duration_ms, NULL, o.snippet FROM closed JOIN outcome o ON o.id = closed.id ORDER BY o.at
    )
    SELECT c.hook_id AS "hookId", max(c.at) AS at FROM closed c JOIN hooks h ON h.id = c.hook_id
    GROUP BY c.hook_id, h.failing_since, h.last_success_at
    HAVING (h.failing_since IS NOT NULL AND h.failing_since <= max(c.at))
      OR h.last_success_at IS NULL OR h.last_success_at < now() - interval '1 minute'`,
    [
      successes.map((s) => s.delivery.id),
      successes.map((s) => s.outcome.at),
      successes.map((s) => s.outcome.responseStatus),
      successes.map((s) => s.outcome.durationMs),
      successes.map((s) => s.outcome.responseSnippet),
    ] as never,
  )) as { rows: Array<{ hookId: string; at: Date }> };
  if (rows.length === 0) return;
  // Locked in id order (the sub-select), so two workers touching the same hooks never wait on each other in a
  // cycle; the condition is checked again under the lock. A failure recorded after this success keeps its clock.
  // NO KEY UPDATE, as the UPDATE itself locks: FOR UPDATE would also wait for every fan-out inserting deliveries
  // of these hooks (their foreign key holds a key-share lock until that transaction commits).
  await db.raw(
    `
    UPDATE hooks h SET last_success_at = greatest(h.last_success_at, v.at),
      failing_since = CASE WHEN h.failing_since <= v.at THEN NULL ELSE h.failing_since END
    FROM unnest(?::text[], ?::timestamptz[]) AS v(id, at)
    WHERE h.id = v.id AND h.id IN (SELECT id FROM hooks WHERE id = ANY(?::text[]) ORDER BY id FOR NO KEY UPDATE)
      AND (h.failing_since <= v.at OR h.last_success_at IS NULL OR h.last_success_at < now() - interval '1 minute')`,
    [rows.map((r) => r.hookId), rows.map((r) => r.at), rows.map((r) => r.hookId)] as never,
  );
}

/**
 * Extends the leases of deliveries still being sent. One being recorded right now is skipped rather than waited
 * for: its lease is given up by that statement.
 */
export async function renewLeases(db: Knex, deliveryIds: string[], leaseSeconds: number): Promise<void> {
  await db.raw(
    `
    UPDATE deliveries SET locked_until = now() + make_interval(secs => ?)
    WHERE id IN (
      SELECT id FROM deliveries WHERE id = ANY(?) AND status IN ('pending', 'retrying') AND locked_until IS NOT NULL
      ORDER BY id FOR UPDATE SKIP LOCKED)`,
    [leaseSeconds, deliveryIds],
  );
}

/**
 * Gives back the leases of deliveries never sent (a worker stopping with a backlog), and wakes any worker for them.
 * Called at every stop: an empty backlog sends no statement.
 */
export async function releaseLeases(db: Knex, deliveryIds: string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await db.raw(
    `
    WITH released AS (
      UPDATE deliveries SET locked_until = NULL
      WHERE id = ANY(?) AND status IN ('pending', 'retrying') AND locked_until IS NOT NULL
      RETURNING 1
    )
    SELECT pg_notify(?, '') FROM (SELECT 1 FROM released LIMIT 1) AS open`,
    [deliveryIds, DELIVERIES_CHANNEL],
  );
}

/** Successes recorded in batches of up to 500; those a dying worker never wrote leave their leases to run out. */
export function successRecorder(db: Knex): Batcher<Success> {
  return new Batcher((batch) => recordSuccesses(db, batch), 500);
}
