import type { Knex } from 'knex';
import type { IncomingEvent } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import type { StoredWebhook } from './claim.js';
import { runLastWrites } from './last-writes.js';
import { eventsOf, receiverOf } from './receivers.js';
import type { PlatformWebhookRow } from './rows.js';

/** Errors kept on a stored webhook are cut to this many characters. */
const ERROR_CHARS = 2000;

/** Consecutive events of one platform and kind, which the areas handle together. */
interface Run {
  platform: string;
  kind: IncomingEvent['kind'];
  events: IncomingEvent[];
}

/** The webhooks' events in the order received, cut where the platform or the kind changes. */
function runsOf(services: Services, webhooks: StoredWebhook[]): Run[] {
  const runs: Run[] = [];
  for (const webhook of webhooks) {
    const receiver = receiverOf(services, webhook.platform);
    for (const event of receiver ? eventsOf(receiver, webhook.body, { accountId: webhook.sourceAccountId }) : []) {
      const last = runs.at(-1);
      if (last && last.platform === webhook.platform && last.kind === event.kind) last.events.push(event);
      else runs.push({ platform: webhook.platform, kind: event.kind, events: [event] });
    }
  }
  return runs;
}

/**
 * Turns stored platform webhooks (of one intake key, in the order received) into our records and events and
 * marks them processed, in `trx`: all of them or none. Each run of events of one kind goes to every area handling
 * that kind (src/modules/<area>/index.ts, `incoming`), in the areas' order. Handling them again changes nothing
 * more: each area's handling is idempotent per event. What the areas left to the end (`leaveToLast`) is written
 * last, before the webhooks are marked processed.
 */
export async function handleWebhooks(services: Services, trx: Knex.Transaction, webhooks: StoredWebhook[]): Promise<void> {
  for (const { platform, kind, events } of runsOf(services, webhooks)) {
    for (const handle of services.incomingHandlers(kind)) await handle(services, platform, events as never, trx);
  }
  await runLastWrites(trx);
  await markProcessed(
    trx,
    webhooks.map(({ id }) => id),
  );
}

/** Marks webhooks processed, which gives up their leases. */
async function markProcessed(trx: Knex.Transaction, ids: string[]): Promise<void> {
  await trx<PlatformWebhookRow>('platformWebhooks')
    .whereIn('id', ids)
    .update({ processedAt: trx.fn.now(), error: null, lockedUntil: null });
}

/**
 * Records that handling a webhook failed: another attempt after its source's backoff (the settings' unless the
 * source declares its own), or, after the last, the webhook given up with its error kept.
 */
export async function recordFailure(services: Services, webhook: StoredWebhook, error: unknown): Promise<void> {
  const { db, config, logger } = services;
  const schedule = receiverOf(services, webhook.platform)?.retryScheduleSeconds ?? config.intake.retryScheduleSeconds;
  const attempts = webhook.attempts + 1;
  const givenUp = attempts > schedule.length;
  const message = (error instanceof Error ? error.message : String(error)).slice(0, ERROR_CHARS);
  const context = { err: error, platformWebhookId: webhook.id, platform: webhook.platform, attempts, givenUp };
  if (givenUp) logger.error(context, 'processing a platform webhook failed for the last time: given up');
  else logger.warn(context, 'processing a platform webhook failed');
  await db<PlatformWebhookRow>('platformWebhooks')
    .where({ id: webhook.id })
    .update({
      attempts,
      error: message,
      lockedUntil: null,
      ...(givenUp ? { failedAt: db.fn.now() } : { nextAttemptAt: db.raw('now() + make_interval(secs => ?)', [schedule[attempts - 1]!]) }),
    });
}
