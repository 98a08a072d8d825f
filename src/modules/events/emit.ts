import type { Knex } from 'knex';
import type { components, webhooks } from '../../../generated/api.js';
import { preparedRows } from '../../db/prepared.js';
import { newId } from '../../lib/ids.js';
import { receivedByActiveHook } from '../hooks/receivers.js';

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

const INSERT_ONE = `INSERT INTO events (id, owner_id, profile_id, name, data, dispatched_at)
  SELECT e.id, e.owner_id, e.profile_id, e.name, e.data, CASE WHEN ${receivedByActiveHook('e')} THEN NULL ELSE now() END
  FROM (VALUES ($1::text, $2::text, $3::text, $4::text, $5::jsonb)) AS e(id, owner_id, profile_id, name, data)
  RETURNING id, owner_id AS "ownerId", profile_id AS "profileId", name, data, created_at AS "createdAt", dispatched_at AS "dispatchedAt"`;

/**
 * The one way to emit an event: a row in `events`, written in the caller's transaction (the outbox). It is
 * delivered only if that transaction commits, and a crash after the commit loses nothing. A plain insert, then a
 * NOTIFY only for an event a hook takes: a statement with WITH members, planned at every call, cost PostgreSQL more
 * than the second round trip saves. The insert is a named statement, planned once per connection: planning it at
 * every call was two fifths of its cost.
 *
 * An event that no active hook of its owner takes when it is written is written dispatched: the fan-out never
 * reads nor marks it again, and nobody is woken for it (src/modules/hooks/receivers.ts decides). So a hook receives
 * the events emitted after it is created, set active again, or given their name in `events`; an event emitted while
 * that change is being committed may or may not reach it, as an event emitted before it may not. A hook paused
 * after an event was written still misses it: the fan-out reads the active hooks again.
 */
export async function emitEvent<N extends EventName>(trx: Knex | Knex.Transaction, event: NewEvent<N>): Promise<EventRecord> {
  const [emitted] = await preparedRows<EventRecord>(trx, 'events:emit', INSERT_ONE, [
    newId('evt'),
    event.ownerId,
    event.profileId,
    event.name,
    JSON.stringify(event.data),
  ]);
  if (emitted!.dispatchedAt === null) await trx.raw(`NOTIFY ${EVENTS_CHANNEL}`);
  return emitted!;
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

/**
 * The events of a jsonb array (rows as `eventRows` makes them) inserted by a statement of the caller's, as the
 * WITH members `emitted` (the rows written) and `woken`, which wakes the dispatcher when any of them waits for it
 * and must be selected from, or it is not run. `keys`, a subquery over the statement's own WITH members, narrows
 * them to the events whose key it answers. Same outbox rules as emitEvent.
 */
function emitting(keys?: string): string {
  return `emitted AS (
      INSERT INTO events (id, owner_id, profile_id, name, data, dispatched_at)
      SELECT e.id, e.owner_id, e.profile_id, e.name, e.data, CASE WHEN ${receivedByActiveHook('e')} THEN NULL ELSE now() END
      FROM jsonb_to_recordset(?::jsonb) AS e(key text, id text, owner_id text, profile_id text, name text, data jsonb)
      ${keys ? `WHERE e.key IN (${keys})` : ''}
      RETURNING *),
    woken AS (SELECT pg_notify(?, '') FROM (SELECT 1 FROM emitted WHERE dispatched_at IS NULL LIMIT 1) AS waiting)`;
}

const EMITTED = emitting();

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
  await trx.raw(`WITH ${EMITTED} SELECT count(*) FROM woken`, [eventRows(events.map((event) => ({ event }))), EVENTS_CHANNEL]);
}

/**
 * Events emitted by a statement of the caller's that decides in SQL which of them happen (runs finished only if
 * still running, say), with its change in one round trip. `ctes` are two WITH members to add to the statement:
 * `emitted` inserts those of `events` whose key the subquery `keys` (over the statement's own WITH members)
 * answers; `woken` wakes the dispatcher when any of them waits for it, and must be selected from, or it is not run.
 * Same outbox rules as emitEvent.
 */
export function emittedWith(keys: string, events: Array<{ key: string; event: NewEvent }>): { ctes: string; bindings: Knex.RawBinding[] } {
  return { ctes: emitting(keys), bindings: [eventRows(events), EVENTS_CHANNEL] };
}
