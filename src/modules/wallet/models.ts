import type { components } from '../../../generated/api.js';
import { BaseModel } from '../../db/base-model.js';

type Schemas = components['schemas'];
export type PassStyle = Schemas['WalletProgram']['passStyle'];
export type TransitType = NonNullable<Schemas['WalletProgram']['transitType']>;
export type ProgramField = Schemas['WalletPassField'];
export type ProgramColors = Schemas['WalletProgramColors'];
export type BarcodeFormat = Schemas['WalletProgram']['barcodeFormat'];
export type CertificateSummary = NonNullable<Schemas['WalletVendorStatus']['certificate']>;

export class ProgramRow extends BaseModel {
  static override tableName = 'walletPrograms';
  static override jsonAttributes = ['colors', 'fields', 'certificate'];
  id!: string;
  ownerId!: string;
  profileId!: string;
  name!: string;
  passStyle!: PassStyle;
  transitType!: TransitType | null;
  organizationName!: string;
  description!: string;
  colors!: ProgramColors | null;
  logoMediaId!: string | null;
  iconMediaId!: string | null;
  logoText!: string | null;
  fields!: ProgramField[];
  barcodeFormat!: BarcodeFormat;
  passTypeIdentifier!: string | null;
  teamIdentifier!: string | null;
  certificatePem!: string | null;
  sealedPrivateKey!: string | null;
  wwdrPem!: string | null;
  certificate!: CertificateSummary | null;
  certificateExpiresAt!: Date | null;
  connectedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export class PassRow extends BaseModel {
  static override tableName = 'walletPasses';
  static override jsonAttributes = ['fields'];
  id!: string;
  programId!: string;
  ownerId!: string;
  profileId!: string;
  passTypeIdentifier!: string;
  serialNumber!: string;
  holderName!: string | null;
  holderEmail!: string | null;
  fields!: Record<string, string>;
  barcodeMessage!: string;
  /** A bigint column: PostgreSQL hands it back as a string. */
  balance!: number | string;
  expiresAt!: Date | null;
  sealedDownloadToken!: string;
  sealedAuthenticationToken!: string;
  updateTag!: number | string;
  modifiedAt!: Date;
  deletedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export class TransactionRow extends BaseModel {
  static override tableName = 'walletTransactions';
  id!: string;
  passId!: string;
  type!: Schemas['WalletPassTransaction']['type'];
  points!: number | string;
  amount!: number | string | null;
  currency!: string | null;
  note!: string | null;
  reference!: string | null;
  balanceAfter!: number | string;
  createdAt!: Date;
}

// The two tables no model reads: the query builder and SQL use them, typed with these rows.

/** A device registered for a pass's updates (the pass web service's registrations). */
export interface RegistrationRow {
  deviceLibraryIdentifier: string;
  passId: string;
  pushToken: string;
  createdAt: Date;
}

/** A push owed to a device for a pass type, drained by the push worker under a lease. */
export interface PushRow {
  /** A bigint: PostgreSQL's driver reads it as a string. */
  id: string;
  pushToken: string;
  passTypeIdentifier: string;
  programId: string;
  /** A change made while the push was being sent: the device is owed another. */
  requeued: boolean;
  attempts: number;
  dueAt: Date;
  leaseUntil: Date | null;
  createdAt: Date;
}
