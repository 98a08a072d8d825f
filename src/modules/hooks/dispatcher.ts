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
  /** Deliveries made for them, leased or not. */
  deliveries: number;
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
    if (marked.length === 0) return { events: 0, deliveries: 0, claimed: [] };
    const events = marked.sort((a, b) => (a.id < b.id ? -1 : 1));
    const owners = [...new Set(events.map((event) => event.ownerId))];
    const hooks = await HookRow.query(trx).whereIn('ownerId', owners).where({ active: true });
    const rows = events.flatMap((event) => {
      const matching = hooks.filter((hook) => hook.ownerId === event.ownerId && receives(hook, event));
      return deliveryRows(trx, event, matching, config.webhooks);
    });
    const leased = rows.slice(0, Math.max(0, options.claim ?? 0));
    const insertedIds = new Set(await insertDeliveries(trx, rows, leased.length, config.webhooks.leaseSeconds));
    const claimed: SendingDelivery[] = [];
    for (const { id, hookId, ownerId, event, body } of leased) if (insertedIds.has(id)) claimed.push({ id, hookId, ownerId, event, body });
    const byId = new Map(hooks.map((hook) => [hook.id, hook]));
    return {
      events: events.length,
      deliveries: rows.length,
      claimed: claimed.map((delivery) => ({ delivery, hook: byId.get(delivery.hookId)! })),
    };
  });
}

/**
 * Deliveries in one statement however many there are: a text array per column (unnest), so neither the query
 * builder nor the server handles a placeholder per value. The first `leased` rows are created under the caller's
 * lease, as a claim would leave them. A re-run after a crash inserts nothing twice (the UNIQUE constraint).
 * Answers the ids of the leased rows it did insert (the rows are in hand already); wakes other workers only for
 * inserted rows nobody holds.
 */
async function insertDeliveries(trx: Knex, rows: ReturnType<typeof deliveryRows>, leased: number, leaseSeconds: number): Promise<string[]> {
  if (rows.length === 0) return [];
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((row) => row[key]);
  const { rows: answer } = (await trx.raw(
    `
    WITH inserted AS (
      INSERT INTO deliveries (id, hook_id, event_id, owner_id, event, body, max_attempts, status, attempt_count, next_attempt_at, locked_until)
      SELECT d.id, d.hook_id, d.event_id, d.owner_id, d.event, d.body, d.max_attempts, 'pending', 0, now(),
        CASE WHEN d.n <= ? THEN now() + make_interval(secs => ?) END
      FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::int[])
        WITH ORDINALITY AS d(id, hook_id, event_id, owner_id, event, body, max_attempts, n)
      ON CONFLICT (event_id, hook_id) DO NOTHING
      RETURNING id, locked_until IS NOT NULL AS leased
    ), woken AS (SELECT pg_notify(?, '') FROM (SELECT 1 FROM inserted WHERE NOT leased LIMIT 1) AS open)
    SELECT array(SELECT id FROM inserted WHERE leased) AS ids, (SELECT count(*) FROM woken) AS woken`,
    [
      leased,
      leaseSeconds,
      column('id'),
      column('hookId'),
      column('eventId'),
      column('ownerId'),
      column('event'),
      column('body'),
      column('maxAttempts'),
      DELIVERIES_CHANNEL,
    ] as never,
  )) as { rows: Array<{ ids: string[] }> };
  return answer[0]!.ids;
}
