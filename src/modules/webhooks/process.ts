import type { Db } from '../../db/database.js';
import type { IncomingEvent } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import type { StoredWebhook } from './claim.js';

/** Errors kept on a stored webhook are cut to this many characters. */
const ERROR_CHARS = 2000;

/** Hands one event to every area that handles its kind (src/modules/<area>/index.ts, `incoming`). */
async function dispatch<K extends IncomingEvent['kind']>(
  services: Services,
  platform: string,
  event: Extract<IncomingEvent, { kind: K }>,
): Promise<void> {
  for (const handle of services.incomingHandlers<K>(event.kind as K)) await handle(services, platform, event);
}

/**
 * Turns one stored platform webhook into our records and events. Running it twice changes nothing more: each
 * area's handling is idempotent per event. Resolves to false when it failed; the failure is then recorded on the
 * webhook: another attempt after the settings' backoff, or, after the last, the webhook given up with its error
 * kept. A webhook handled is marked processed by the caller (`markProcessed`).
 */
export async function processWebhook(services: Services, webhook: StoredWebhook): Promise<boolean> {
  try {
    const receiver = services.platforms.get(webhook.platform)?.webhooks;
    const events = receiver ? receiver.parse(webhook.body, { accountId: webhook.sourceAccountId }) : [];
    for (const event of events) await dispatch(services, webhook.platform, event);
    return true;
  } catch (error) {
    await recordFailure(services, webhook, error);
    return false;
  }
}

/** Marks webhooks processed, which gives up their leases. */
export async function markProcessed(db: Db, ids: string[]): Promise<void> {
  await db('platformWebhooks').whereIn('id', ids).update({ processedAt: db.fn.now(), error: null, lockedUntil: null });
}

async function recordFailure(services: Services, webhook: StoredWebhook, error: unknown): Promise<void> {
  const { db, config, logger } = services;
  const schedule = config.intake.retryScheduleSeconds;
  const attempts = webhook.attempts + 1;
  const givenUp = attempts > schedule.length;
  const message = (error instanceof Error ? error.message : String(error)).slice(0, ERROR_CHARS);
  logger.warn({ err: error, platformWebhookId: webhook.id, attempts, givenUp }, 'processing a platform webhook failed');
  await db('platformWebhooks')
    .where({ id: webhook.id })
    .update({
      attempts,
      error: message,
      lockedUntil: null,
      ...(givenUp ? { failedAt: db.fn.now() } : { nextAttemptAt: db.raw('now() + make_interval(secs => ?)', [schedule[attempts - 1]!]) }),
    });
}
