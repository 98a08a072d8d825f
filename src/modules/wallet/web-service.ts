import { timingSafeEqual } from 'node:crypto';
import type { Services } from '../../services.js';
import { NotFoundError } from '../../lib/errors.js';
import { WalletPassAuthFailedError } from './errors.js';
import { PassRow, ProgramRow, type RegistrationRow } from './models.js';
import { buildPkpass } from './package.js';
import { assertCanSign } from './passes.js';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Signed files by pass version: after a change, every device that holds the pass fetches the same version at
 * once, and it is signed once. A version is the pass's update tag with its program's (design, certificate).
 */
const signedVersions = new Map<string, Promise<Buffer>>();
const SIGNED_VERSIONS = 500;

/** A pass's signed file, as it is now, with its program. */
async function signed(services: Services, pass: PassRow): Promise<{ file: Buffer; lastModified: string }> {
  const program = await ProgramRow.query(services.db).findById(pass.programId).throwIfNotFound();
  assertCanSign(program);
  const version = `${pass.id}:${pass.updateTag}:${program.updatedAt.getTime()}:${program.certificate?.serialNumber ?? ''}`;
  let file = signedVersions.get(version);
  if (!file) {
    file = buildPkpass(services, program, pass);
    file.catch(() => signedVersions.delete(version));
    signedVersions.set(version, file);
    if (signedVersions.size > SIGNED_VERSIONS) signedVersions.delete(signedVersions.keys().next().value!);
  }
  return { file: await file, lastModified: pass.modifiedAt.toUTCString() };
}

/** The public download: the pass (not deleted) whose link carries its token; any mismatch is the same 404. */
export async function download(
  services: Services,
  id: string,
  token: string,
): Promise<{ file: Buffer; lastModified: string; serialNumber: string }> {
  const pass = await PassRow.query(services.db).findById(id).whereNull('deletedAt');
  if (!pass || !sameSecret(token, services.secrets.open(pass.sealedDownloadToken))) throw new NotFoundError('wallet pass');
  return { ...(await signed(services, pass)), serialNumber: pass.serialNumber };
}

/**
 * The pass a device's request names, authorised by `Authorization: ApplePass <authenticationToken>` — the pass's
 * own token, written in its pass.json. Deleted passes too: devices must learn they are void.
 */
export async function authorisedPass(
  services: Services,
  passTypeIdentifier: string,
  serialNumber: string,
  authorization: string,
): Promise<PassRow> {
  const token = /^ApplePass (\S+)$/.exec(authorization)?.[1];
  const pass = token ? await PassRow.query(services.db).findOne({ passTypeIdentifier, serialNumber }) : undefined;
  if (!pass || !sameSecret(token!, services.secrets.open(pass.sealedAuthenticationToken))) throw new WalletPassAuthFailedError();
  return pass;
}

/** Registers the device for the pass's updates at its push token; answers whether it is a new registration. */
export async function register(services: Services, deviceLibraryIdentifier: string, pass: PassRow, pushToken: string): Promise<boolean> {
  const result = await services.db.raw(
    `INSERT INTO wallet_registrations (device_library_identifier, pass_id, push_token) VALUES (?, ?, ?)
     ON CONFLICT (device_library_identifier, pass_id) DO UPDATE SET push_token = EXCLUDED.push_token
     RETURNING (xmax = 0) AS inserted`,
    [deviceLibraryIdentifier, pass.id, pushToken],
  );
  return Boolean((result as { rows: Array<{ inserted: boolean }> }).rows[0]?.inserted);
}

export async function unregister(services: Services, deviceLibraryIdentifier: string, pass: PassRow): Promise<void> {
  await services.db<RegistrationRow>('walletRegistrations').where({ deviceLibraryIdentifier, passId: pass.id }).delete();
}

/**
 * The serial numbers of the passes of this type the device is registered for that changed after `since` (all of
 * them without it), and the tag to send next time; null when none changed.
 */
export async function updatedSince(
  services: Services,
  deviceLibraryIdentifier: string,
  passTypeIdentifier: string,
  since: string | undefined,
): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
  const query = services
    .db('walletRegistrations as r')
    .join('walletPasses as p', 'p.id', 'r.passId')
    .where({ 'r.deviceLibraryIdentifier': deviceLibraryIdentifier, 'p.passTypeIdentifier': passTypeIdentifier })
    .select('p.serialNumber', 'p.updateTag');
  if (since) query.where('p.updateTag', '>', since);
  const rows = (await query) as Array<{ serialNumber: string; updateTag: string }>;
  if (rows.length === 0) return null;
  const lastUpdated = rows.reduce((max, row) => (BigInt(row.updateTag) > max ? BigInt(row.updateTag) : max), 0n);
  return { serialNumbers: rows.map((row) => row.serialNumber), lastUpdated: lastUpdated.toString() };
}

/** The latest signed pass, or null when the device's copy (If-Modified-Since) is that version already. */
export async function latest(
  services: Services,
  pass: PassRow,
  ifModifiedSince: string | undefined,
): Promise<{ file: Buffer; lastModified: string } | null> {
  const since = ifModifiedSince ? Date.parse(ifModifiedSince) : NaN;
  if (!Number.isNaN(since) && pass.modifiedAt.getTime() <= since) return null;
  return signed(services, pass);
}
