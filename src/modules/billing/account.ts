import type { Knex } from 'knex';
import { sha256Hex } from '../../lib/crypto.js';
import { ownerEmail } from '../auth/api.js';
import type { BillingProvider } from './provider.js';
import { provided } from './provider.js';
import type { BillingAccountRow } from './rows.js';

/** Subscription states in which the owner is subscribed (a new checkout would make a second subscription). */
export const SUBSCRIBED: ReadonlySet<string> = new Set(['trialing', 'active', 'past_due']);

export async function billingAccount(db: Knex, ownerId: string): Promise<BillingAccountRow | undefined> {
  return (await db('billingAccounts').where({ ownerId }).first()) as BillingAccountRow | undefined;
}

/** The owner's row, locked until the transaction ends: what changes an owner's billing takes turns. */
export async function lockedAccount(trx: Knex.Transaction, ownerId: string): Promise<BillingAccountRow> {
  await trx('billingAccounts').insert({ ownerId }).onConflict('ownerId').ignore();
  return (await trx('billingAccounts').where({ ownerId }).forUpdate().first()) as BillingAccountRow;
}

/** The owner of a provider's customer, when it is one of ours. */
export async function ownerOfCustomer(db: Knex, customerId: string): Promise<string | null> {
  const row = (await db('billingAccounts').where({ customerId }).first('ownerId')) as { ownerId: string } | undefined;
  return row?.ownerId ?? null;
}

/**
 * The owner's customer at the provider, created on first need. Created once: racing requests take turns on the
 * owner's row, and the provider's idempotency key makes a retried creation (an answer lost) the same customer. The
 * key names the parameters too: the provider refuses a key used again with others (an email changed since).
 */
export async function ensureCustomer(db: Knex, provider: BillingProvider, ownerId: string): Promise<string> {
  return db.transaction(async (trx) => {
    const account = await lockedAccount(trx, ownerId);
    if (account.customerId) return account.customerId;
    const email = await ownerEmail(trx, ownerId);
    const customer = await provided(() =>
      provider.stripe.customers.create(
        { email, metadata: { ownerId } },
        { idempotencyKey: `socialgate-customer-${ownerId}-${sha256Hex(email).slice(0, 16)}` },
      ),
    );
    await trx('billingAccounts').where({ ownerId }).update({ customerId: customer.id, updatedAt: trx.fn.now() });
    return customer.id;
  });
}
