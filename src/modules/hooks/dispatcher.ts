import type { Knex } from 'knex';
import type { WebhookSettings } from '../../lib/config.js';
import { newId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { envelopeOf, type EventRecord } from '../events/emit.js';
import { type DeliveryRow, HookRow } from './models.js';

/** Woken when deliveries become due; NOTIFY is sent on commit only. */
export const DELIVERIES_CHANNEL = 'socialgate_deliveries';

/**
 * One delivery per (event, hook) — the UNIQUE constraint makes a re-run insert nothing twice — and the event
 * marked dispatched, in the caller's transaction. A paused hook gets a single attempt (tests, redeliveries).
 */
export async function fanOut(trx: Knex, event: EventRecord, hooks: HookRow[], settings: WebhookSettings): Promise<DeliveryRow[]> {
  let created: DeliveryRow[] = [];
  if (hooks.length > 0) {
    created = await trx('deliveries').insert(deliveryRows(trx, event, hooks, settings))
      .onConflict(['eventId', 'hookId']).ignore().returning('*') as DeliveryRow[];
    await trx.raw(`NOTIFY ${DELIVERIES_CHANNEL}`);
  }
  await trx('events').where({ id: event.id }).update({ dispatchedAt: trx.fn.now() });
  return created;
}

function deliveryRows(trx: Knex, event: EventRecord, hooks: HookRow[], settings: WebhookSettings) {
  const body = envelopeOf(event);
  return hooks.map((hook) => ({
    id: newId('dlv'), hookId: hook.id, eventId: event.id, ownerId: event.ownerId, event: event.name, body,
    status: 'pending', attemptCount: 0, nextAttemptAt: trx.fn.now(),
    maxAttempts: hook.active ? settings.retryScheduleSeconds.length + 1 : 1,
  }));
}

/**
 * Fans out events not dispatched yet to the active hooks whose `events` name them and whose profiles cover
 * them (a hook for every profile also receives owner-level events). Locked with SKIP LOCKED, so any number of
 * workers can run it at once. Returns how many events it handled.
 */
export async function dispatchPending({ db, config }: Services, batchSize = 500): Promise<number> {
  return db.transaction(async (trx) => {
    const events = await trx('events').whereNull('dispatchedAt').orderBy('id').limit(batchSize).forUpdate().skipLocked() as EventRecord[];
    if (events.length === 0) return 0;
    const owners = [...new Set(events.map((event) => event.ownerId))];
    const hooks = await HookRow.query(trx).whereIn('ownerId', owners).where({ active: true });
    const rows = events.flatMap((event) => {
      const matching = hooks.filter((hook) => hook.ownerId === event.ownerId && hook.events.includes(event.name)
        && (hook.profileIds === null || (event.profileId !== null && hook.profileIds.includes(event.profileId))));
      return deliveryRows(trx, event, matching, config.webhooks);
    });
    // One INSERT per thousand deliveries rather than one per event: fan-out keeps up with bursts.
    for (let start = 0; start < rows.length; start += 1000) {
      await trx('deliveries').insert(rows.slice(start, start + 1000)).onConflict(['eventId', 'hookId']).ignore();
    }
    if (rows.length > 0) await trx.raw(`NOTIFY ${DELIVERIES_CHANNEL}`);
    await trx('events').whereIn('id', events.map((event) => event.id)).update({ dispatchedAt: trx.fn.now() });
    return events.length;
  });
}
