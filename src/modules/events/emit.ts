import type { Knex } from 'knex';
import type { components, webhooks } from '../../../generated/api.js';
import { newId } from '../../lib/ids.js';

export type EventName = components['schemas']['EventName'];

/** An event's `data`, as the contract's outgoing webhook of that name declares it. */
export type EventData<N extends EventName> = webhooks[N]['post']['requestBody']['content']['application/json']['data'];

/** Woken by every committed event; NOTIFY is transactional, so a rolled-back change wakes nobody. */
export const EVENTS_CHANNEL = 'socialgate_events';

/** An event to emit: its `data` must be what the contract declares for its `name`, or the typecheck fails. */
export type NewEvent<N extends EventName = EventName> = {
  [K in N]: {
    ownerId: string;
    /** null for owner-level events (invoices, tests), which reach only hooks that cover every profile. */
    profileId: string | null;
    name: K;
    data: EventData<K>;
  };
}[N];

/**
 * The one way to emit an event: a row in `events`, written in the caller's transaction (the outbox). It is
 * delivered only if that transaction commits, and a crash after the commit loses nothing.
 */
export async function emitEvent<N extends EventName>(trx: Knex | Knex.Transaction, event: NewEvent<N>): Promise<EventRecord> {
  const [row] = await trx('events')
    .insert({ id: newId('evt'), ownerId: event.ownerId, profileId: event.profileId, name: event.name, data: JSON.stringify(event.data) })
    .returning('*');
  await trx.raw(`NOTIFY ${EVENTS_CHANNEL}`);
  return row as EventRecord;
}

export interface EventRecord {
  id: string;
  ownerId: string;
  profileId: string | null;
  name: EventName;
  data: unknown;
  createdAt: Date;
  dispatchedAt: Date | null;
}

/**
 * The delivery body: exactly the four members of the envelope, event content only under `data`. `profileId` is
 * a string in every envelope, as the specification types it: an event of no profile has the empty string.
 */
export function envelopeOf(event: EventRecord): string {
  return JSON.stringify({ event: event.name, ownerId: event.ownerId, profileId: event.profileId ?? '', data: event.data });
}

/** The events of a jsonb array (rows as `eventRows` makes them) inserted by a statement of the caller's. */
const INSERT_EVENTS = `INSERT INTO events (id, owner_id, profile_id, name, data)
  SELECT e.id, e.owner_id, e.profile_id, e.name, e.data
  FROM jsonb_to_recordset(?::jsonb) AS e(key text, id text, owner_id text, profile_id text, name text, data jsonb)`;

function eventRows(events: Array<{ key?: string; event: NewEvent }>): string {
  return JSON.stringify(
    events.map(({ key, event }) => ({
      key: key ?? null,
      id: newId('evt'),
      owner_id: event.ownerId,
      profile_id: event.profileId,
      name: event.name,
      data: event.data,
    })),
  );
}

/**
 * Many events (a batch of posts settling at once, the messages of a webhook batch) in one statement that also wakes
 * the dispatcher: one round trip. Same outbox rules as emitEvent.
 */
export async function emitEvents(trx: Knex | Knex.Transaction, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await trx.raw(`WITH emitted AS (${INSERT_EVENTS} RETURNING 1) SELECT pg_notify(?, '')`, [
    eventRows(events.map((event) => ({ event }))),
    EVENTS_CHANNEL,
  ]);
}

/**
 * Events emitted by a statement of the caller's that decides in SQL which of them happen (runs finished only if
 * still running, say), with its change in one round trip. `ctes` are two WITH members to add to the statement:
 * `emitted` inserts those of `events` whose key the subquery `keys` (over the statement's own WITH members)
 * answers; `woken` wakes the dispatcher when any was inserted, and must be selected from, or it is not run. Same
 * outbox rules as emitEvent.
 */
export function emittedWith(keys: string, events: Array<{ key: string; event: NewEvent }>): { ctes: string; bindings: Knex.RawBinding[] } {
  return {
    ctes: `emitted AS (${INSERT_EVENTS} WHERE e.key IN (${keys}) RETURNING 1),
      woken AS (SELECT pg_notify(?, '') FROM (SELECT 1 FROM emitted LIMIT 1) AS any_emitted)`,
    bindings: [eventRows(events), EVENTS_CHANNEL],
  };
}
