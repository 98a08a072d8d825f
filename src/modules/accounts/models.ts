import { BaseModel } from '../../db/base-model.js';

export class ProfileRow extends BaseModel {
  static override tableName = 'profiles';
  id!: string;
  ownerId!: string;
  name!: string;
  description!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
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
    | 'platform_error';
  message: string;
  platformCode: string | null;
  at: string;
}

export class AccountRow extends BaseModel {
  static override tableName = 'accounts';
  // scopes is text[] (not JSON); last_error is jsonb and comes back parsed.
  static override jsonAttributes = ['lastError'];
  id!: string;
  ownerId!: string;
  profileId!: string;
  platform!: string;
  kind!: string;
  platformAccountId!: string | null;
  name!: string;
  username!: string | null;
  avatarUrl!: string | null;
  status!: AccountStatus;
  statusReason!: string | null;
  scopes!: string[];
  credentialsCiphertext!: string | null;
  tokenExpiresAt!: Date | null;
  connectedAt!: Date | null;
  /** Who at the platform granted the token, where a deauthorization names only them. */
  platformUserId!: string | null;
  lastSuccessAt!: Date | null;
  lastError!: AccountError | null;
  /** What the latest check of the platform side found wrong (our webhook gone), null when nothing; see platform-check.ts. */
  platformProblem!: string | null;
  platformCheckedAt!: Date | null;
  createdAt!: Date;
  updatedAt!: Date;
}

export class AdAccountRow extends BaseModel {
  static override tableName = 'ad_accounts';
  id!: string;
  ownerId!: string;
  profileId!: string;
  platform!: 'social_network' | 'short_video_ads';
  platformAdAccountId!: string;
  name!: string;
  currency!: string;
  timezone!: string;
  status!: AccountStatus;
  statusReason!: string | null;
  platformStatus!: string;
  credentialsCiphertext!: string | null;
  tokenExpiresAt!: Date | null;
  connectedAt!: Date;
  platformUserId!: string | null;
  createdAt!: Date;
  updatedAt!: Date;
}
