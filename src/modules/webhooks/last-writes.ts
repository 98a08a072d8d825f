import type { Knex } from 'knex';

/** The writes each intake transaction keeps for its end, in the order they were left. */
const lastWrites = new WeakMap<Knex.Transaction, Array<() => Promise<void>>>();

/**
 * Leaves a write to the end of the intake's transaction (`trx`, as an incoming handler is given it), after every
 * area has handled the events and just before the webhooks are marked processed: the row locks it takes are then
 * held only until the commit that follows. A conversation's row is one the platform writes (a reply stored) lock
 * as well: taken where its messages are stored, it was held through every area's statements after.
 */
export function leaveToLast(trx: Knex.Transaction, write: () => Promise<void>): void {
  const writes = lastWrites.get(trx) ?? [];
  writes.push(write);
  lastWrites.set(trx, writes);
}

/** Runs the writes left to the end of `trx`, in order. */
export async function runLastWrites(trx: Knex.Transaction): Promise<void> {
  const writes = lastWrites.get(trx) ?? [];
  lastWrites.delete(trx);
  for (const write of writes) await write();
}
