import type { components } from '../../../generated/api.js';
import type { Credentials, PlatformAdapter, PlatformIdentity } from '../types.js';

/** What the token endpoint granted, kept only until the accounts it covers are saved. */
export interface OAuthGrant {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string[];
  /** Platform extras (a user id, advertiser ids) the adapter needs to list the accounts. */
  extra: Record<string, string>;
}

/** One account a grant covers, ready to be saved. */
export interface GrantedAccount {
  /** Accounts of another platform that come with this grant (a calendar with a business profile). */
  platform?: string;
  identity: PlatformIdentity;
  credentials: Credentials;
}

/** One ad account a grant covers (an advertiser), ready to be saved. */
export interface GrantedAdAccount {
  platformAdAccountId: string;
  name: string;
  currency: string;
  timezone: string;
  platformStatus: components['schemas']['AdAccountPlatformStatus'];
  tokenExpiresAt: Date | null;
  credentials: Credentials;
}

export interface AuthorizationRequest {
  state: string;
  redirectUri: string;
  /** S256 challenge of the PKCE verifier, where the platform supports PKCE. */
  codeChallenge: string | null;
  include: string[];
}

interface OAuthFlow {
  /** Whether the flow uses PKCE (the verifier is kept with the state). */
  readonly pkce: boolean;
  /** How the S256 challenge is encoded: base64url (RFC 7636, the default), or hex where the platform wants it. */
  readonly challengeEncoding?: 'base64url' | 'hex';
  authorizationUrl(request: AuthorizationRequest): string;
  exchange(code: string, redirectUri: string, codeVerifier: string | null): Promise<OAuthGrant>;
}

/** A flow whose callback connects every account the grant covers at once. */
export interface ConnectingFlow extends OAuthFlow {
  /** The accounts the grant covers (locations, the user's own profile). */
  accounts(grant: OAuthGrant, include: string[]): Promise<GrantedAccount[]>;
  /** The ad accounts the grant covers (advertisers), where the platform grants those: saved with the accounts. */
  adAccounts?(grant: OAuthGrant): Promise<GrantedAdAccount[]>;
}

/**
 * A flow whose grant covers many assets (pages, ad accounts) the user chooses among afterwards: the callback
 * keeps the grant as a pending connection instead of connecting anything.
 */
export interface SelectingFlow extends OAuthFlow {
  /** What to keep of the grant for the selection; refuses (PlatformError) a grant that cannot list anything. */
  pendingSelection(grant: OAuthGrant): Promise<Credentials>;
}

/** A platform connected by the OAuth authorization-code flow. */
export interface OAuthAdapter extends PlatformAdapter {
  readonly oauth: ConnectingFlow | SelectingFlow;
}

export function isSelectingFlow(flow: OAuthAdapter['oauth']): flow is SelectingFlow {
  return 'pendingSelection' in flow;
}

export function isOAuthAdapter(adapter: PlatformAdapter | undefined): adapter is OAuthAdapter {
  return adapter !== undefined && 'oauth' in adapter;
}
