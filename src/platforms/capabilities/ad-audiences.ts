import type { components } from '../../../generated/api.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';

type Schemas = components['schemas'];
export type AudienceSubtype = Schemas['AdAudienceSubtype'];
export type AudienceRule = Schemas['AdEventRule'];
export type LookalikeSpec = Schemas['AdAudienceLookalikeSpec'];

/** An audience as the platform has it, in the contract's words (what the ad account's id and platform complete). */
export interface PlatformAudience {
  id: string;
  name: string;
  subtype: AudienceSubtype;
  description: string | null;
  /** The platform's range of people; null while it populates or is too small to tell. */
  sizeRange: { lower: number; upper: number } | null;
  customerFileSource: Schemas['AdAudience']['customerFileSource'];
  status: Schemas['AdAudience']['status'];
  lookalikeSpec: LookalikeSpec | null;
  pixelId: string | null;
  rule: AudienceRule | null;
  retentionDays: number | null;
  createdAt: string;
  updatedAt: string;
}

/** A new audience: a customer list, a lookalike of another audience, or the people of a pixel's matching events. */
export type AudienceInput = { name: string; description?: string } & (
  | { subtype: 'CUSTOM'; customerFileSource: NonNullable<Schemas['AdAudience']['customerFileSource']> }
  | { subtype: 'LOOKALIKE'; lookalikeSpec: LookalikeSpec }
  | { subtype: 'WEBSITE'; pixelId: string; rule: AudienceRule; retentionDays: number }
);

/** A change: members absent keep their value; a `null` description removes it. */
export interface AudienceChange {
  name?: string;
  description?: string | null;
  retentionDays?: number;
}

/** One person as the platform receives them: each field it takes, under its own key, normalised and hashed already. */
export type HashedRow = Record<string, string>;

/** What one batch of an upload did, as the platform counts it. */
export interface BatchReceipt {
  received: number;
  invalid: number;
}

/**
 * One upload of people to (or from) a customer list, batch after batch, in the platform's own session: the social
 * network's `session` (`batch_seq`, `last_batch_flag`), the short-video platform's files applied at the end.
 */
export interface AudienceUpload {
  /** The platform's id of the session, where it has one. */
  readonly sessionId: string | null;
  /** Sends one batch (at most `batchSize` rows, `keys` naming their columns); `last` closes the session. */
  send(rows: HashedRow[], last: boolean): Promise<BatchReceipt>;
}

/** Why the platform refuses an audience, where the caller can do something about it: each is its own 422. */
export type AudienceRefusalReason = 'terms_not_accepted' | 'too_small' | 'source_not_ready';

/** The platform refused for one of the reasons the caller can fix (accept the terms, wait, grow the source). */
export class AudienceRefused extends PlatformError {
  constructor(
    readonly reason: AudienceRefusalReason,
    message: string,
    readonly platformCode: number | null = null,
    readonly platformSubcode: number | null = null,
  ) {
    super('invalid_request', message, platformCode === null ? {} : { platformCode });
    this.name = 'AudienceRefused';
  }
}

/**
 * Custom audiences of a connected ad account and the people of its customer lists (Meta's Marketing API:
 * social_network; TikTok's Business API DMP: short_video_ads). A refusal of the request is an `AdRefused`
 * (ad-campaigns.ts) naming our member, or an `AudienceRefused` for terms, size and readiness; token and throttling
 * failures are the usual `PlatformError`s.
 */
export interface AdAudiences {
  /**
   * The person fields the platform matches customer lists on, each under its key (`EMAIL`, `PHONE_SHA256`): the
   * rows of an upload carry these keys only, hashed as the platform's rules say (src/modules/ads/people/).
   */
  readonly personKeys: Readonly<Partial<Record<PersonFieldName, string>>>;
  /** The most rows one batch may carry. */
  readonly batchSize: number;
  /** Whether a customer list is created from its first people (TikTok's from a first file): `create` then needs `firstRows`. */
  readonly createsWithPeople: boolean;
  /**
   * Creates the audience (not idempotent: the caller wraps it in the write ledger and reconciles a lost answer
   * with `findCreated`); a customer list on a platform that `createsWithPeople` is made from `firstRows`.
   */
  create(account: AdapterAccount, input: AudienceInput, firstRows?: HashedRow[]): Promise<{ id: string; first: BatchReceipt | null }>;
  /** After a lost answer: the audience of this name made at or after `since`, or null. Never creates. */
  findCreated(account: AdapterAccount, input: AudienceInput, since: Date): Promise<string | null>;
  /** One page of the account's audiences, newest first. */
  list(
    account: AdapterAccount,
    subtype: AudienceSubtype | undefined,
    limit: number,
    after?: string,
  ): Promise<{ items: PlatformAudience[]; nextCursor: string | null }>;
  /** One audience; null when the account has none with that id. */
  get(account: AdapterAccount, id: string): Promise<PlatformAudience | null>;
  /** Changes one audience and answers it as it now is; null when the account has none with that id. */
  update(account: AdapterAccount, id: string, change: AudienceChange): Promise<PlatformAudience | null>;
  /** Deletes one audience; false when the account has none with that id (gone already). */
  delete(account: AdapterAccount, id: string): Promise<boolean>;
  /** Opens an upload adding people to a customer list, or removing them, with these row keys. */
  upload(account: AdapterAccount, audienceId: string, action: 'add' | 'remove', keys: string[]): Promise<AudienceUpload>;
}

/** The person fields, as src/modules/ads/people/ names them. */
export type PersonFieldName =
  'email' | 'phone' | 'firstName' | 'lastName' | 'city' | 'state' | 'zip' | 'country' | 'gender' | 'dateOfBirth' | 'externalId';
