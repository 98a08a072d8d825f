import type { components } from '../../../generated/api.js';
import type { Db } from '../../db/database.js';
import { NotFoundError } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { type Page, type PageRequest, toPage } from '../../lib/pagination.js';
import { findProfile } from '../accounts/profiles.js';
import { assertProfileInScope, listedProfiles, type Principal } from '../auth/principal.js';
import { usableMedia } from '../media/read.js';
import { invalid, WalletImageNotFoundError, WalletImageTypeError } from './errors.js';
import { type ProgramField, ProgramRow } from './models.js';
import { vendorStatus } from './vendor-status.js';

type Schemas = components['schemas'];
type ProgramCreate = Schemas['WalletProgramCreate'];
type ProgramUpdate = Schemas['WalletProgramUpdate'];
type FieldInput = Schemas['WalletPassFieldInput'];
export type WalletProgram = Schemas['WalletProgram'];

/** Colours of a program that sets none: the vendor's own default look, black on white. */
const DEFAULT_COLORS = { foreground: 'rgb(0, 0, 0)', background: 'rgb(255, 255, 255)', label: 'rgb(0, 0, 0)' };

export function presentProgram(row: ProgramRow, passCount: number, now = new Date()): WalletProgram {
  return {
    id: row.id,
    profileId: row.profileId,
    name: row.name,
    passStyle: row.passStyle,
    transitType: row.transitType,
    organizationName: row.organizationName,
    description: row.description,
    colors: row.colors ?? DEFAULT_COLORS,
    logoMediaId: row.logoMediaId,
    iconMediaId: row.iconMediaId,
    logoText: row.logoText,
    fields: row.fields,
    barcodeFormat: row.barcodeFormat,
    vendor: vendorStatus(row, now),
    passCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function passCounts(db: Db, programIds: string[]): Promise<Map<string, number>> {
  if (programIds.length === 0) return new Map();
  const rows = (await db('walletPasses')
    .whereIn('programId', programIds)
    .whereNull('deletedAt')
    .groupBy('programId')
    .select('programId', db.raw('count(*)::int as count'))) as Array<{ programId: string; count: number }>;
  return new Map(rows.map((row) => [row.programId, row.count]));
}

/** The owner's program, or 404; 403 when the caller's key is restricted to other profiles. */
export async function findProgram(db: Db, principal: Principal, id: string, options: { forUpdate?: boolean } = {}): Promise<ProgramRow> {
  const query = ProgramRow.query(db).findOne({ id, ownerId: principal.ownerId });
  if (options.forUpdate) query.forUpdate();
  const row = await query;
  if (!row) throw new NotFoundError('wallet program');
  assertProfileInScope(principal, row.profileId);
  return row;
}

export async function readProgram(db: Db, principal: Principal, id: string): Promise<WalletProgram> {
  const row = await findProgram(db, principal, id);
  return presentProgram(row, (await passCounts(db, [row.id])).get(row.id) ?? 0);
}

export async function createProgram(db: Db, principal: Principal, body: ProgramCreate): Promise<WalletProgram> {
  await findProfile(db, principal, body.profileId);
  if (body.passStyle === 'boardingPass' && !body.transitType)
    throw invalid('body/transitType', 'is required for a boardingPass', 'required');
  if (body.passStyle !== 'boardingPass' && body.transitType) throw invalid('body/transitType', 'is only for a boardingPass');
  const fields = checkedFields(body.fields ?? []);
  await checkImages(db, principal, { logoMediaId: body.logoMediaId, iconMediaId: body.iconMediaId });
  const row = await ProgramRow.query(db).insertAndFetch({
    id: newId('wprog'),
    ownerId: principal.ownerId,
    profileId: body.profileId,
    name: body.name,
    passStyle: body.passStyle,
    transitType: body.transitType ?? null,
    organizationName: body.organizationName,
    description: body.description,
    colors: body.colors ?? null,
    logoMediaId: body.logoMediaId ?? null,
    iconMediaId: body.iconMediaId ?? null,
    logoText: body.logoText ?? null,
    fields,
    barcodeFormat: body.barcodeFormat === undefined ? 'qr' : body.barcodeFormat,
  });
  return presentProgram(row, 0);
}

export async function listPrograms(
  db: Db,
  principal: Principal,
  page: PageRequest,
  profileId: string | undefined,
): Promise<Page<WalletProgram>> {
  const profiles = await listedProfiles(db, principal, profileId);
  const query = ProgramRow.query(db)
    .where({ ownerId: principal.ownerId })
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (profiles) query.whereIn('profileId', profiles);
  if (page.after) query.where('id', '<', page.after);
  const rows = await query;
  const counts = await passCounts(
    db,
    rows.map((row) => row.id),
  );
  return toPage(rows, page, (row) => presentProgram(row, counts.get(row.id) ?? 0));
}

/**
 * Changes a program's design. The passes show it from their next download; the devices that hold them are asked
 * to fetch them again (the caller queues the pushes in the same transaction).
 */
export async function updateProgram(trx: Db, principal: Principal, id: string, body: ProgramUpdate): Promise<ProgramRow> {
  const row = await findProgram(trx, principal, id, { forUpdate: true });
  await checkImages(trx, principal, { logoMediaId: body.logoMediaId, iconMediaId: body.iconMediaId });
  const patch: Partial<ProgramRow> = {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.organizationName !== undefined ? { organizationName: body.organizationName } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.colors !== undefined ? { colors: body.colors } : {}),
    ...(body.logoMediaId !== undefined ? { logoMediaId: body.logoMediaId } : {}),
    ...(body.iconMediaId !== undefined ? { iconMediaId: body.iconMediaId } : {}),
    ...(body.logoText !== undefined ? { logoText: body.logoText } : {}),
    ...(body.fields !== undefined ? { fields: checkedFields(body.fields) } : {}),
    ...(body.barcodeFormat !== undefined ? { barcodeFormat: body.barcodeFormat } : {}),
  };
  return ProgramRow.query(trx).patchAndFetchById(row.id, { ...patch, updatedAt: new Date() });
}

function checkedFields(fields: FieldInput[]): ProgramField[] {
  const seen = new Set<string>();
  return fields.map((field, index) => {
    if (seen.has(field.key)) throw invalid(`body/fields/${index}/key`, `repeats the key ${field.key}`, 'uniqueItems');
    seen.add(field.key);
    if (field.changeMessage && !field.changeMessage.includes('%@')) {
      throw invalid(`body/fields/${index}/changeMessage`, 'must contain %@, where the new value is shown', 'pattern');
    }
    return {
      key: field.key,
      label: field.label ?? null,
      section: field.section,
      defaultValue: field.defaultValue ?? null,
      changeMessage: field.changeMessage ?? null,
    };
  });
}

/** Design images must be PNG images the caller may use (the vendor accepts no other format). */
async function checkImages(
  db: Db,
  principal: Principal,
  images: { logoMediaId?: string | null; iconMediaId?: string | null },
): Promise<void> {
  for (const [member, mediaId] of Object.entries(images)) {
    if (!mediaId) continue;
    const [media] = await usableMedia(db, principal, [mediaId]);
    if (!media) throw new WalletImageNotFoundError(mediaId, `body/${member}`);
    if (media.mimeType !== 'image/png') throw new WalletImageTypeError(mediaId, `body/${member}`, media.mimeType);
  }
}
