import type { components } from '../../../generated/api.js';
import type { Principal } from '../auth/principal.js';
import { emitEvent } from '../events/emit.js';
import type { Services } from '../../services.js';
import { checkCertificate } from './certificate.js';
import { type CertificateCheck, WalletCertificateInvalidError, WalletProgramHasPassesError } from './errors.js';
import { ProgramRow } from './models.js';
import { findProgram } from './programs.js';
import { vendorTrust } from './trust.js';
import { type VendorStatus, vendorStatus } from './vendor-status.js';

type Schemas = components['schemas'];

const NO_CERTIFICATE = { certificatePem: null, sealedPrivateKey: null, wwdrPem: null, certificate: null, certificateExpiresAt: null };

/**
 * Sets the program's pass type and team identifiers. A stored certificate that names other identifiers is
 * dropped; one that names these makes the program connected at once. Identifiers cannot change once passes were
 * issued under them (deleted ones included: devices still hold them).
 */
export async function connectVendor(
  services: Services,
  principal: Principal,
  id: string,
  body: Schemas['WalletVendorConnect'],
): Promise<VendorStatus> {
  return services.db.transaction(async (trx) => {
    const program = await findProgram(trx, principal, id, { forUpdate: true });
    if (program.passTypeIdentifier === body.passTypeIdentifier && program.teamIdentifier === body.teamIdentifier)
      return vendorStatus(program);
    const passes = Number(
      ((await trx('walletPasses').where({ programId: program.id }).count('* as count').first()) as { count: string }).count,
    );
    if (passes > 0) throw new WalletProgramHasPassesError(passes, program.passTypeIdentifier!);
    const keeps = Boolean(program.certificate) && certificateNames(program, body.passTypeIdentifier, body.teamIdentifier);
    const now = new Date();
    const wasConnected = vendorStatus(program, now).status === 'connected';
    const updating = ProgramRow.query(trx).patchAndFetchById(program.id, {
      passTypeIdentifier: body.passTypeIdentifier,
      teamIdentifier: body.teamIdentifier,
      ...(keeps ? {} : NO_CERTIFICATE),
      updatedAt: now,
    });
    const updated = await updating;
    if (wasConnected || vendorStatus(updated, now).status !== 'connected') return vendorStatus(updated, now);
    return vendorStatus(await announceConnected(trx, ProgramRow.query(trx).patchAndFetchById(updated.id, { connectedAt: now })), now);
  });
}

/** Whether the stored certificate's subject names these identifiers (its UID and OU, as checked on upload). */
function certificateNames(program: ProgramRow, passTypeIdentifier: string, teamIdentifier: string): boolean {
  const fields = new Set((program.certificate?.subject ?? '').split(', '));
  return fields.has(`UID=${passTypeIdentifier}`) && fields.has(`OU=${teamIdentifier}`);
}

/**
 * Checks and stores the signing certificate, its key sealed. The program takes its identifiers from the
 * certificate when it has none yet. A valid upload (a renewal too) connects the program and emits
 * `program.vendor.connected`.
 */
export async function uploadCertificate(
  services: Services,
  principal: Principal,
  id: string,
  body: Schemas['WalletVendorCertificateUpload'],
): Promise<VendorStatus> {
  const trust = await vendorTrust(services);
  return services.db.transaction(async (trx) => {
    const program = await findProgram(trx, principal, id, { forUpdate: true });
    const checked = checkCertificate(body, trust, {
      passTypeIdentifier: program.passTypeIdentifier,
      teamIdentifier: program.teamIdentifier,
    });
    const teamIdentifier = program.teamIdentifier ?? checked.teamIdentifier;
    if (!teamIdentifier || !/^[A-Z0-9]{10}$/.test(teamIdentifier)) {
      refuse('team_mismatch', 'The certificate names no team identifier (OU); set the identifiers with POST …/vendor/connect first.');
    }
    const now = new Date();
    const updated = ProgramRow.query(trx).patchAndFetchById(program.id, {
      passTypeIdentifier: checked.passTypeIdentifier,
      teamIdentifier,
      certificatePem: checked.certificatePem,
      sealedPrivateKey: services.secrets.seal(checked.privateKeyPem),
      wwdrPem: checked.wwdrPem,
      certificate: checked.summary,
      certificateExpiresAt: checked.expiresAt,
      connectedAt: now,
      updatedAt: now,
    });
    return vendorStatus(await announceConnected(trx, updated), now);
  });
}

function refuse(check: CertificateCheck, detail: string): never {
  throw new WalletCertificateInvalidError(check, detail);
}

async function announceConnected(trx: Services['db'], updating: PromiseLike<ProgramRow>): Promise<ProgramRow> {
  const program = await updating;
  await emitEvent(trx, {
    ownerId: program.ownerId,
    profileId: program.profileId,
    name: 'program.vendor.connected',
    data: {
      programId: program.id,
      passTypeIdentifier: program.passTypeIdentifier!,
      teamIdentifier: program.teamIdentifier!,
      certificateExpiresAt: program.certificateExpiresAt!.toISOString(),
    },
  });
  return program;
}
