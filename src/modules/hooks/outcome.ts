import type { Knex } from 'knex';
import type { WebhookSettings } from '../../lib/config.js';
import type { AttemptOutcome } from './attempt.js';
import type { DeliveryRow } from './models.js';
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
export async function recordOutcome(db: Knex, delivery: DeliveryRow, outcome: AttemptOutcome, settings: WebhookSettings): Promise<void> {
  if (outcome.errorClass === null) return recordSuccess(db, delivery, outcome);
  await db.transaction(async (trx) => {
    const current = await trx('deliveries').where({ id: delivery.id }).forUpdate().first() as DeliveryRow | undefined;
    // Deleted with its hook, or finished by another worker that took over an expired lease.
    if (!current || (current.status !== 'pending' && current.status !== 'retrying')) return;
    await trx('deliveryAttempts').insert({
      deliveryId: delivery.id, at: outcome.at, responseStatus: outcome.responseStatus, durationMs: outcome.durationMs,
      errorClass: outcome.errorClass, responseSnippet: outcome.responseSnippet,
    });
    const attemptCount = current.attemptCount + 1;
    const gone = outcome.responseStatus === 410;
    const exhausted = attemptCount >= current.maxAttempts;
    await trx('deliveries').where({ id: delivery.id }).update(gone || exhausted
      ? { status: 'failed', attemptCount, nextAttemptAt: null, lockedUntil: null }
      : {
        status: 'retrying', attemptCount, lockedUntil: null,
        nextAttemptAt: new Date(Date.now() + nextDelaySeconds(settings, attemptCount, outcome.retryAfterSeconds) * 1000),
      });
    const [hook] = await trx('hooks').where({ id: delivery.hookId })
      .update({ failingSince: trx.raw('coalesce(failing_since, ?)', [outcome.at]) })
      .returning(['failingSince', 'active']) as Array<{ failingSince: Date; active: boolean }>;
    if (!hook?.active) return;
    const failingTooLong = Date.now() - hook.failingSince.getTime() >= settings.disableAfterFailingSeconds * 1000;
    if (gone || failingTooLong) {
      await trx('hooks').where({ id: delivery.hookId })
        .update({ active: false, disabledReason: gone ? 'endpoint_gone' : 'failing_for_5_days', updatedAt: trx.fn.now() });
      await failOpenDeliveries(trx, delivery.hookId);
    }
  });
}

/**
 * The common case in one statement: the delivery closed and its attempt recorded atomically, with no row
 * lock held across round trips. The hook is touched only when its failure clock must stop or its
 * last success is a minute old, so busy hooks are not a lock every delivery queues on.
 */
async function recordSuccess(db: Knex, delivery: DeliveryRow, outcome: AttemptOutcome): Promise<void> {
  await db.raw(`
    WITH closed AS (
      UPDATE deliveries SET status = 'succeeded', attempt_count = attempt_count + 1, delivered_at = :at,
        next_attempt_at = NULL, locked_until = NULL
      WHERE id = :id AND status IN ('pending', 'retrying') RETURNING id
    )
    INSERT INTO delivery_attempts (delivery_id, at, response_status, duration_ms, error_class, response_snippet)
    SELECT id, :at, :status, :duration, NULL, :snippet FROM closed`,
  { id: delivery.id, at: outcome.at, status: outcome.responseStatus, duration: outcome.durationMs, snippet: outcome.responseSnippet });
  await db('hooks').where({ id: delivery.hookId })
    .where((q) => q.whereNotNull('failingSince').orWhereNull('lastSuccessAt').orWhere('lastSuccessAt', '<', db.raw("now() - interval '1 minute'")))
    .update({ lastSuccessAt: outcome.at, failingSince: null });
}
