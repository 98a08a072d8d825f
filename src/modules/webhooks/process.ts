import type { IncomingEvent } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { PROCESS_JOB } from './receive.js';

interface StoredWebhook {
  id: string;
  platform: string;
  sourceAccountId: string | null;
  body: string;
  processedAt: Date | null;
}

/** Hands one event to every area that handles its kind (src/modules/<area>/index.ts, `incoming`). */
async function dispatch<K extends IncomingEvent['kind']>(
  services: Services,
  platform: string,
  event: Extract<IncomingEvent, { kind: K }>,
): Promise<void> {
  for (const handle of services.incomingHandlers<K>(event.kind as K)) await handle(services, platform, event);
}

/** Turns one stored platform webhook into our records and events; running it twice changes nothing more. */
export async function processWebhook(services: Services, id: string): Promise<void> {
  const stored = (await services.db('platformWebhooks').where({ id }).first()) as StoredWebhook | undefined;
  if (!stored || stored.processedAt) return;
  const receiver = services.platforms.get(stored.platform)?.webhooks;
  try {
    const events = receiver ? receiver.parse(stored.body, { accountId: stored.sourceAccountId }) : [];
    for (const event of events) await dispatch(services, stored.platform, event);
    await services.db('platformWebhooks').where({ id }).update({ processedAt: services.db.fn.now(), error: null });
  } catch (error) {
    await services
      .db('platformWebhooks')
      .where({ id })
      .update({ error: (error as Error).message.slice(0, 2000) });
    throw error;
  }
}

/** Webhooks stored but never processed (the process died between storing and enqueueing) get another go. */
export async function sweepWebhooks(services: Services): Promise<void> {
  const stale = (await services
    .db('platformWebhooks')
    .whereNull('processedAt')
    .where('receivedAt', '<', services.db.raw("now() - interval '1 minute'"))
    .limit(500)
    .select('id')) as Array<{ id: string }>;
  for (const { id } of stale) await services.scheduler.now(PROCESS_JOB, { id: String(id) });
}
