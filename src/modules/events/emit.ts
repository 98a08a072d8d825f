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

/** Many events in one statement (a batch of posts settling at once), with one NOTIFY; same outbox rules as emitEvent. */
export async function emitEvents(trx: Knex | Knex.Transaction, events: NewEvent[]): Promise<void> {
  if (events.length === 0) return;
  await trx('events').insert(
    events.map((event) => ({
      id: newId('evt'),
      ownerId: event.ownerId,
      profileId: event.profileId,
      name: event.name,
      data: JSON.stringify(event.data),
    })),
  );
  await trx.raw(`NOTIFY ${EVENTS_CHANNEL}`);
}
