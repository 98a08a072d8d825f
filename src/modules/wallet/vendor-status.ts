import type { components } from '../../../generated/api.js';
import type { ProgramRow } from './models.js';

export type VendorStatus = components['schemas']['WalletVendorStatus'];

/** What the program lacks to sign passes, said from its row alone (no call to the vendor). */
export function vendorStatus(row: ProgramRow, now = new Date()): VendorStatus {
  const status = !row.passTypeIdentifier
    ? 'not_connected'
    : !row.certificate
      ? 'awaiting_certificate'
      : row.certificateExpiresAt && row.certificateExpiresAt <= now
        ? 'certificate_expired'
        : 'connected';
  return {
    status,
    passTypeIdentifier: row.passTypeIdentifier,
    teamIdentifier: row.teamIdentifier,
    certificate: row.certificate,
    connectedAt: row.connectedAt?.toISOString() ?? null,
  };
}
