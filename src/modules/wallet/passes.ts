import { randomBytes } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import type { Db } from '../../db/database.js';
import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import { isUniqueViolation } from '../../lib/pg-errors.js';
import type { Services } from '../../services.js';
import { assertProfileInScope, type Principal } from '../auth/principal.js';
import { emitEvent } from '../events/emit.js';
import { sealedForDelivery } from '../events/sealed.js';
import { versionBump } from './changes.js';
import { invalid, WalletSerialNumberTakenError, WalletVendorNotConnectedError } from './errors.js';
import { PassRow, type ProgramRow } from './models.js';
import { findProgram } from './programs.js';
import { queuePushes } from './pushes.js';
import { vendorStatus } from './vendor-status.js';

type Schemas = components['schemas'];
export type WalletPass = Schemas['WalletPass'];

export function downloadUrl(services: Services, pass: PassRow): string {
  return `${services.config.publicUrl}/wallet/passes/${pass.id}/download?token=${services.secrets.open(pass.sealedDownloadToken)}`;
}

export function presentPass(services: Services, pass: PassRow): WalletPass {
  return {
    id: pass.id,
    programId: pass.programId,
    profileId: pass.profileId,
    serialNumber: pass.serialNumber,
    holder: { name: pass.holderName, email: pass.holderEmail },
    fields: pass.fields,
    barcodeMessage: pass.barcodeMessage,
    balance: Number(pass.balance),
    voided: pass.deletedAt !== null,
    expiresAt: pass.expiresAt?.toISOString() ?? null,
    downloadUrl: downloadUrl(services, pass),
    createdAt: pass.createdAt.toISOString(),
    updatedAt: pass.updatedAt.toISOString(),
  };
}

/** The owner's pass (not deleted), or 404; 403 when the caller's key is restricted to other profiles. */
export async function findPass(db: Db, principal: Principal, id: string, options: { forUpdate?: boolean } = {}): Promise<PassRow> {
  const query = PassRow.query(db).findOne({ id, ownerId: principal.ownerId }).whereNull('deletedAt');
  if (options.forUpdate) query.forUpdate();
  const pass = await query;
  if (!pass) throw new NotFoundError('wallet pass');
  assertProfileInScope(principal, pass.profileId);
  return pass;
}

/** Values for fields of the program only; `balance` is the transactions'. */
function checkFieldKeys(program: ProgramRow, fields: Record<string, unknown>): void {
  const keys = new Set(program.fields.map((field) => field.key));
  for (const key of Object.keys(fields)) {
    if (key === 'balance') throw invalid('body/fields/balance', 'changes only through transactions');
    if (!keys.has(key)) throw invalid(`body/fields/${key}`, `is not a field of the program (${[...keys].join(', ') || 'it has none'})`);
  }
}

export function assertCanSign(program: ProgramRow): void {
  const { status } = vendorStatus(program);
  if (status === 'connected') return;
  throw new WalletVendorNotConnectedError(
    status === 'certificate_expired'
      ? "The program's certificate expired; upload a renewed one with POST /wallet/programs/{id}/vendor/certificate."
      : 'The program has no signing certificate; upload one with POST /wallet/programs/{id}/vendor/certificate.',
  );
}

export async function createPass(services: Services, principal: Principal, body: Schemas['WalletPassCreate']): Promise<WalletPass> {
  return services.db.transaction(async (trx) => {
    const program = await findProgram(trx, principal, body.programId);
    assertCanSign(program);
    checkFieldKeys(program, body.fields ?? {});
    const serialNumber = body.serialNumber ?? randomBytes(8).toString('hex').toUpperCase();
    const balance = body.balance ?? 0;
    let pass: PassRow;
    try {
      pass = await PassRow.query(trx).insertAndFetch({
        id: newId('wpass'),
        programId: program.id,
        ownerId: program.ownerId,
        profileId: program.profileId,
        passTypeIdentifier: program.passTypeIdentifier!,
        serialNumber,
        holderName: body.holder?.name ?? null,
        holderEmail: body.holder?.email ?? null,
        fields: body.fields ?? {},
        barcodeMessage: body.barcodeMessage ?? serialNumber,
        balance,
        expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
        sealedDownloadToken: services.secrets.seal(randomBytes(32).toString('base64url')),
        sealedAuthenticationToken: services.secrets.seal(randomBytes(24).toString('base64url')),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new WalletSerialNumberTakenError(serialNumber);
      throw error;
    }
    if (balance > 0) {
      await trx('walletTransactions').insert({
        id: newId('wtx'),
        passId: pass.id,
        type: 'adjust',
        points: balance,
        note: 'Opening balance',
        balanceAfter: balance,
      });
    }
    const presented = presentPass(services, pass);
    await emitEvent(trx, {
      ownerId: pass.ownerId,
      profileId: pass.profileId,
      name: 'pass.created',
      data: {
        passId: pass.id,
        programId: pass.programId,
        serialNumber,
        downloadUrl: sealedForDelivery(services.secrets, presented.downloadUrl),
      },
    });
    return presented;
  });
}

export async function listPasses(
  services: Services,
  principal: Principal,
  programId: string,
  page: PageRequest,
  filter: { serialNumber?: string; email?: string },
): Promise<Page<WalletPass>> {
  const program = await findProgram(services.db, principal, programId);
  const query = PassRow.query(services.db)
    .where({ programId: program.id })
    .whereNull('deletedAt')
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.after) query.where('id', '<', page.after);
  if (filter.serialNumber) query.where({ serialNumber: filter.serialNumber });
  if (filter.email) query.whereRaw('lower(holder_email) = lower(?)', [filter.email]);
  return toPage(await query, page, (pass) => presentPass(services, pass));
}

/**
 * Changes a pass's own values (fields merged by key, holder, barcode text, expiry). The devices that hold it are
 * asked to fetch it again and `pass.updated` names what changed, in the same transaction; nothing changed, nothing
 * is written.
 */
export async function updatePass(
  services: Services,
  principal: Principal,
  id: string,
  body: Schemas['WalletPassUpdate'],
): Promise<WalletPass> {
  return services.db.transaction(async (trx) => {
    const pass = await findPass(trx, principal, id, { forUpdate: true });
    const program = await findProgram(trx, principal, pass.programId);
    checkFieldKeys(program, body.fields ?? {});
    const changed: string[] = [];
    const fields = { ...pass.fields };
    for (const [key, value] of Object.entries(body.fields ?? {})) {
      if ((fields[key] ?? null) === value) continue;
      changed.push(`fields.${key}`);
      if (value === null) delete fields[key];
      else fields[key] = value;
    }
    const patch: Partial<PassRow> = {};
    if (changed.length > 0) patch.fields = fields;
    if (body.holder && (body.holder.name !== undefined || body.holder.email !== undefined)) {
      const name = body.holder.name ?? null;
      const email = body.holder.email ?? null;
      if (name !== pass.holderName || email !== pass.holderEmail) {
        Object.assign(patch, { holderName: name, holderEmail: email });
        changed.push('holder');
      }
    }
    if (body.barcodeMessage !== undefined && body.barcodeMessage !== pass.barcodeMessage) {
      patch.barcodeMessage = body.barcodeMessage;
      changed.push('barcodeMessage');
    }
    if (body.expiresAt !== undefined && (body.expiresAt ? Date.parse(body.expiresAt) : null) !== (pass.expiresAt?.getTime() ?? null)) {
      patch.expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
      changed.push('expiresAt');
    }
    if (changed.length === 0) return presentPass(services, pass);
    assertCanSign(program);
    const updated = await changePass(trx, pass, patch, { changedFields: changed, transactionId: null });
    return presentPass(services, updated);
  });
}

/**
 * Writes a change of a pass as a new version, asks the devices that hold it to fetch it, and emits
 * `pass.updated` — all in the caller's transaction.
 */
export async function changePass(
  trx: Db,
  pass: PassRow,
  patch: Partial<PassRow>,
  what: { changedFields: string[]; transactionId: string | null },
): Promise<PassRow> {
  const updated = await PassRow.query(trx).patchAndFetchById(pass.id, { ...patch, ...versionBump(trx) } as Partial<PassRow>);
  await queuePushes(trx, [pass.id]);
  await emitEvent(trx, {
    ownerId: pass.ownerId,
    profileId: pass.profileId,
    name: 'pass.updated',
    data: { passId: pass.id, programId: pass.programId, serialNumber: pass.serialNumber, ...what },
  });
  return updated;
}

/**
 * Deletes a pass for the API (404 from now on) while devices keep getting it, void: the row stays as a tombstone,
 * its serial number taken, and the devices that hold it are asked to fetch it.
 */
export async function deletePass(services: Services, principal: Principal, id: string): Promise<void> {
  await services.db.transaction(async (trx) => {
    const pass = await findPass(trx, principal, id, { forUpdate: true });
    await PassRow.query(trx).patchAndFetchById(pass.id, { deletedAt: new Date(), ...versionBump(trx) } as Partial<PassRow>);
    await queuePushes(trx, [pass.id]);
    await emitEvent(trx, {
      ownerId: pass.ownerId,
      profileId: pass.profileId,
      name: 'pass.deleted',
      data: { passId: pass.id, programId: pass.programId, serialNumber: pass.serialNumber },
    });
  });
}

/**
 * The program's design changed: every pass of it (deleted ones too, still on devices) takes a new version, and
 * the devices that hold them are asked to fetch them. No event: `pass.updated` is about a pass's own values.
 */
export async function programPassesChanged(trx: Db, programId: string): Promise<void> {
  const ids = (await trx('walletPasses').where({ programId }).update(versionBump(trx)).returning('id')).map(
    (row: { id: string }) => row.id,
  );
  await queuePushes(trx, ids);
}
