import type { ModelClass } from 'objection';
import { BaseModel } from '../../db/base-model.js';
import type { AccountId, AdAccountId } from '../../lib/ids.js';

export class ProfileRow extends BaseModel {
  static override tableName = 'profiles';
  id!: string;
  ownerId!: string;
  name!: string;
  description!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
  /** Set by DELETE /profiles/{id}: every read of profiles leaves the row out (see profile-deletion.ts). */
  deletedAt!: Date | null;
}

/** A row of `account_revocations`: what a deleted profile's connection owes its platform, done after the commit. */
export interface RevocationRow {
  accountId: AccountId | AdAccountId;
  ownerId: string;
  /** The connection's credentials as they were when it was disconnected: the account's own are forgotten then. */
  credentialsCiphertext: string;
  attempts: number;
  dueAt: Date;
  lockedUntil: Date | null;
  lastError: string | null;
  createdAt: Date;
}

export type AccountStatus = 'connected' | 'needs_reconnection' | 'disconnected' | 'pending';

export interface AccountError {
  code:
    | 'token_expired'
    | 'token_revoked'
    | 'permission_missing'
    | 'rate_limited'
    | 'platform_unavailable'
    | 'session_logged_out'
    | 'lead_access_refused'
    | 'platform_error';
  message: string;
  platformCode: string | null;
  at: string;
}

/**
 * What the service keeps of any connection to a platform, an account and an ad account alike: whose it is, its
 * state, its sealed credentials and what the platform last said of them. Reading credentials, refreshing them,
 * the platform check and recording a call's outcome take this, so each serves both.
 */
export interface Credentialed {
  id: AccountId | AdAccountId;
  ownerId: string;
  profileId: string;
  platform: string;
  name: string;
  status: AccountStatus;
  statusReason: string | null;
  /** What the platform granted the token; an ad account's are its grant's. */
  scopes: string[];
  credentialsCiphertext: string | null;
  tokenExpiresAt: Date | null;
  /** Who at the platform granted the token, where a deauthorization names only them. */
  platformUserId: string | null;
  lastSuccessAt: Date | null;
  lastError: AccountError | null;
  /** When the platform check last asked the platform about it; see platform-check.ts. */
  platformCheckedAt: Date | null;
}

/** The columns an account and an ad account share, as Credentialed names them. */
abstract class ConnectionRow extends BaseModel implements Credentialed {
  // scopes is text[] (not JSON); last_error is jsonb and comes back parsed.
  static override jsonAttributes = ['lastError'];
  abstract id: AccountId | AdAccountId;
  ownerId!: string;
  profileId!: string;
  platform!: string;
  name!: string;
  status!: AccountStatus;
  statusReason!: string | null;
  scopes!: string[];
  credentialsCiphertext!: string | null;
  tokenExpiresAt!: Date | null;
  platformUserId!: string | null;
  lastSuccessAt!: Date | null;
  lastError!: AccountError | null;
  platformCheckedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export class AccountRow extends ConnectionRow {
  static override tableName = 'accounts';
  id!: AccountId;
  kind!: string;
  platformAccountId!: string | null;
  username!: string | null;
  avatarUrl!: string | null;
  connectedAt!: Date | null;
  /** What the latest check of the platform side found wrong (our webhook gone), null when nothing. */
  platformProblem!: string | null;
}

export class AdAccountRow extends ConnectionRow {
  static override tableName = 'ad_accounts';
  id!: AdAccountId;
  declare platform: 'social_network' | 'short_video_ads';
  platformAdAccountId!: string;
  currency!: string;
  timezone!: string;
  platformStatus!: string;
  connectedAt!: Date;
}

/** An account or an ad account: which one is in its id's prefix (`acc_`, `adacc_`). */
export type Connection = AccountRow | AdAccountRow;
export type ConnectionId = Connection['id'];

export function isAdAccountId(id: ConnectionId): id is AdAccountId {
  return id.startsWith('adacc_');
}

/** How messages name the connection `id` names. */
export function nounOf(id: ConnectionId): 'account' | 'ad account' {
  return isAdAccountId(id) ? 'ad account' : 'account';
}

/** Both kinds of connection, for the service's own work on each (refresh, the platform check). */
export const CONNECTION_MODELS = [AccountRow, AdAccountRow] as ModelClass<Connection>[];

/** The model of the connection `id` names, queried for what accounts and ad accounts have alike. */
export function connectionModel(id: ConnectionId): ModelClass<Connection> {
  return (isAdAccountId(id) ? AdAccountRow : AccountRow) as ModelClass<Connection>;
}

/** The connection's own id at its platform (a page's, an advertiser's); null for a QR session not paired yet. */
export function platformIdOf(row: Connection): string | null {
  return 'platformAdAccountId' in row ? row.platformAdAccountId : row.platformAccountId;
}
