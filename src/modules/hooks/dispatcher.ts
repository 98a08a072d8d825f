import type { Knex } from 'knex';
import type { WebhookSettings } from './settings.js';
import { newId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import { envelopeOf, type EventRecord } from '../events/emit.js';
import type { SendingDelivery } from './attempt.js';
import { type DeliveryRow, HookRow } from './models.js';
import { receives } from './receivers.js';

/** Woken when deliveries become due; NOTIFY is sent on commit only. */
export const DELIVERIES_CHANNEL = 'socialgate_deliveries';

/**
 * One delivery per (event, hook) — the UNIQUE constraint makes a re-run insert nothing twice — and the event
 * marked dispatched, in the caller's transaction. A paused hook gets a single attempt (tests, redeliveries).
 */
export async function fanOut(trx: Knex, event: EventRecord, hooks: HookRow[], settings: WebhookSettings): Promise<DeliveryRow[]> {
  let created: DeliveryRow[] = [];
  if (hooks.length > 0) {
    created = (await trx('deliveries')
      .insert(deliveryRows(trx, event, hooks, settings))
      .onConflict(['eventId', 'hookId'])
      .ignore()
      .returning('*')) as DeliveryRow[];
    await trx.raw(`NOTIFY ${DELIVERIES_CHANNEL}`);
  }
  // An event no active hook took when it was written is written dispatched (src/modules/events/emit.ts).
  if (event.dispatchedAt === null) await trx('events').where({ id: event.id }).update({ dispatchedAt: trx.fn.now() });
  return created;
}

function deliveryRows(trx: Knex, event: EventRecord, hooks: HookRow[], settings: WebhookSettings) {
  const body = envelopeOf(event);
  return hooks.map((hook) => ({
    id: newId('dlv'),
    hookId: hook.id,
    eventId: event.id,
    ownerId: event.ownerId,
    event: event.name,
    body,
    status: 'pending',
    attemptCount: 0,
    nextAttemptAt: trx.fn.now(),
    maxAttempts: hook.active ? settings.retryScheduleSeconds.length + 1 : 1,
  }));
}

export interface Dispatched {
  /** Events fanned out. */
  events: number;
  /** Deliveries created already leased to the caller, to send at once after the commit. */
  claimed: Array<{ delivery: SendingDelivery; hook: HookRow }>;
}

/**
 * Fans out events not dispatched yet to the active hooks whose `events` name them and whose profiles cover
 * them (a hook for every profile also receives owner-level events). Locked with SKIP LOCKED, so any number of
 * workers can run it at once. Up to `claim` of the new deliveries are created under the caller's lease (as a
 * claim would leave them), saving a claim and a wake-up per delivery; the rest wait for any worker.
 */
export async function dispatchPending({ db, config }: Services, options: { batchSize?: number; claim?: number } = {}): Promise<Dispatched> {
  const batchSize = options.batchSize ?? 500;
  return db.transaction(async (trx) => {
    // Picked and marked dispatched in one statement; the transaction makes the mark and the deliveries one.
    const { rows: marked } = (await trx.raw(
      `
      UPDATE events SET dispatched_at = now()
      WHERE id IN (SELECT id FROM events WHERE dispatched_at IS NULL ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)
      RETURNING id, owner_id AS "ownerId", profile_id AS "profileId", name, data, created_at AS "createdAt", dispatched_at AS "dispatchedAt"`,
      [batchSize],
    )) as { rows: EventRecord[] };
    if (marked.length === 0) return { events: 0, claimed: [] };
    const events = marked.sort((a, b) => (a.id < b.id ? -1 : 1));
    const owners = [...new Set(events.map((event) => event.ownerId))];
    const hooks = await HookRow.query(trx).whereIn('ownerId', owners).where({ active: true });
    const rows = events.flatMap((event) => {
      const matching = hooks.filter((hook) => hook.ownerId === event.ownerId && receives(hook, event));
      return deliveryRows(trx, event, matching, config.webhooks);
    });
    const leased = rows.slice(0, Math.max(0, options.claim ?? 0));
    const open = rows.slice(leased.length);
    const lockedUntil = trx.raw('now() + make_interval(secs => ?)', [config.webhooks.leaseSeconds]);
    const claimed: SendingDelivery[] = [];
    // One INSERT per thousand deliveries rather than one per event: fan-out keeps up with bursts. A re-run after a
    // crash inserts nothing twice (the UNIQUE constraint), and returns only what it did insert: their ids, the
    // rows being in hand already.
    for (let start = 0; start < leased.length; start += 1000) {
      const chunk = leased.slice(start, start + 1000);
      const inserted = (await trx('deliveries')
        .insert(chunk.map((row) => ({ ...row, lockedUntil })))
        .onConflict(['eventId', 'hookId'])
        .ignore()
        .returning('id')) as Array<{ id: string }>;
      const insertedIds = new Set(inserted.map(({ id }) => id));
      for (const { id, hookId, ownerId, event, body } of chunk) if (insertedIds.has(id)) claimed.push({ id, hookId, ownerId, event, body });
    }
    for (let start = 0; start < open.length; start += 1000) {
      await trx('deliveries')
        .insert(open.slice(start, start + 1000))
        .onConflict(['eventId', 'hookId'])
        .ignore();
    }
    // Other workers need waking only for deliveries nobody holds.
    if (open.length > 0) await trx.raw(`NOTIFY ${DELIVERIES_CHANNEL}`);
    const byId = new Map(hooks.map((hook) => [hook.id, hook]));
    return { events: events.length, claimed: claimed.map((delivery) => ({ delivery, hook: byId.get(delivery.hookId)! })) };
  });
}
