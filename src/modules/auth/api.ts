import type { Knex } from 'knex';
import { OwnerRow } from './models.js';

// What other areas read of the owners' table.

/**
 * Locks the owner's row until the transaction ends: what is limited per owner (its hooks) is then counted and
 * added by one transaction at a time.
 */
export async function lockOwner(trx: Knex.Transaction, ownerId: string): Promise<void> {
  await OwnerRow.query(trx).findById(ownerId).forUpdate().select('id');
}

/** The owner's email address (the owner exists: callers act for it). */
export async function ownerEmail(db: Knex, ownerId: string): Promise<string> {
  return (await OwnerRow.query(db).findById(ownerId).select('email').throwIfNotFound()).email;
}
