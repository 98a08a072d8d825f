import type { components } from '../../../generated/api.js';
import { newId } from '../../lib/ids.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { InsufficientBalanceError, invalid, WalletPassExpiredError } from './errors.js';
import { TransactionRow } from './models.js';
import { changePass, findPass } from './passes.js';

type Schemas = components['schemas'];
type TransactionCreate = Schemas['WalletPassTransactionCreate'];
export type WalletPassTransaction = Schemas['WalletPassTransaction'];

export function presentTransaction(row: TransactionRow): WalletPassTransaction {
  return {
    id: row.id,
    passId: row.passId,
    type: row.type,
    points: Number(row.points),
    amount: row.amount === null ? null : Number(row.amount),
    currency: row.currency,
    note: row.note,
    reference: row.reference,
    balanceAfter: Number(row.balanceAfter),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The signed change of the balance a transaction makes; refuses what its type does not allow. */
function pointsOf(body: TransactionCreate): number {
  const points = body.points;
  switch (body.type) {
    case 'earn':
    case 'redeem':
      if (points === undefined || points < 1) throw invalid('body/points', `must be at least 1 for ${body.type}`, 'minimum');
      return body.type === 'earn' ? points : -points;
    case 'adjust':
      if (!points) throw invalid('body/points', 'must be a non-zero number for adjust', 'required');
      return points;
    case 'purchase':
      if (body.amount === undefined || body.currency === undefined)
        throw invalid('body/amount', 'a purchase needs amount and currency', 'required');
      if (points !== undefined && points < 0) throw invalid('body/points', 'a purchase adds points, it takes none', 'minimum');
      return points ?? 0;
  }
}

/**
 * Applies a transaction to the pass's balance: the pass row is locked, the ledger row and the new balance are
 * written together with the pushes owed to its devices and `pass.updated`, in one transaction. A balance never goes
 * below zero (the table refuses it too). A retried request is answered from the Idempotency-Key record.
 */
export async function createTransaction(
  services: Services,
  principal: Principal,
  passId: string,
  body: TransactionCreate,
): Promise<WalletPassTransaction> {
  const points = pointsOf(body);
  return services.db.transaction(async (trx) => {
    const pass = await findPass(trx, principal, passId, { forUpdate: true });
    if (pass.expiresAt && pass.expiresAt <= new Date()) throw new WalletPassExpiredError(pass.expiresAt);
    const balance = Number(pass.balance);
    if (balance + points < 0) throw new InsufficientBalanceError(balance, -points);
    const row = await TransactionRow.query(trx).insertAndFetch({
      id: newId('wtx'),
      passId: pass.id,
      type: body.type,
      points,
      amount: body.amount ?? null,
      currency: body.currency ?? null,
      note: body.note ?? null,
      reference: body.reference ?? null,
      balanceAfter: balance + points,
    });
    if (points !== 0) await changePass(trx, pass, { balance: balance + points }, { changedFields: ['balance'], transactionId: row.id });
    return presentTransaction(row);
  });
}

export async function listTransactions(
  services: Services,
  principal: Principal,
  passId: string,
  page: PageRequest,
  type: TransactionCreate['type'] | undefined,
): Promise<Page<WalletPassTransaction>> {
  const pass = await findPass(services.db, principal, passId);
  const query = TransactionRow.query(services.db)
    .where({ passId: pass.id })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (type) query.where({ type });
  if (page.after) query.where('id', '<', page.after);
  return toPage(await query, page, presentTransaction);
}
