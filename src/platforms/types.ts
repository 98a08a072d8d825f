import type { components } from '../../generated/api.js';
import type { Capabilities, CapabilityName } from './capabilities/index.js';

export type PlatformId = components['schemas']['Platform'];
export type AccountKind = components['schemas']['AccountKind'];

/** What an adapter is given of an account: its platform identity and its opened credentials. */
export interface AdapterAccount {
  platformAccountId: string;
  credentials: Credentials;
}

/** Tokens and secrets of one account, sealed at rest as one JSON document. */
export interface Credentials {
  accessToken: string;
  refreshToken?: string;
  /** Other per-account secrets: a webhook secret token, a phone number id, an app secret … */
  extra?: Record<string, string>;
}

/** Who an account is on the platform, as connecting it found out. */
export interface PlatformIdentity {
  platformAccountId: string;
  kind: AccountKind;
  name: string;
  username: string | null;
  avatarUrl: string | null;
  scopes: string[];
  tokenExpiresAt: Date | null;
  /** The person whose grant the token comes from (Meta's app-scoped user id): their deauthorization reaches it. */
  platformUserId?: string | null;
}

export type About = Omit<components['schemas']['AccountAbout'], 'accountId' | 'platform' | 'fetchedAt'>;

/**
 * A platform's adapter: the core every platform has (who it is, the account's profile, its tokens' refresh and
 * revocation where the platform has them) and, by name, each capability it has (src/platforms/capabilities/).
 */
export interface PlatformAdapter extends Partial<Capabilities> {
  id: PlatformId;
  /**
   * An identity of this platform (a bot, a number, a linked device) can be connected by one owner only: the
   * platform sends its incoming events to one place (one webhook, one subscription, one session), so a second
   * owner connecting it would take them away from the first. Absent where sharing is legitimate (a page two
   * owners manage both get its events).
   */
  readonly exclusiveIdentity?: boolean;
  /** Why the platform has none of a capability, where there is more to say to the user who asks for it. */
  readonly lacks?: Partial<Record<CapabilityName, string>>;
  /** Live public profile of the account. */
  about(account: AdapterAccount): Promise<About>;
  /** New tokens before the current ones expire; absent where the platform has no refresh. */
  refresh?(credentials: Credentials): Promise<{ credentials: Credentials; tokenExpiresAt: Date | null }>;
  /** How long before expiry to refresh, where the platform wants more than the default (a refresh needs a token still valid). */
  refreshAheadMs?: number;
  /** Revoke the app's access at the platform, where the platform allows it (best effort by the caller). */
  revoke?(account: AdapterAccount): Promise<void>;
  /**
   * `revoke` undoes what every connection of the same platform identity shares (a page's webhook subscription), not
   * one connection's own grant: it is left undone while another connection of the identity is live.
   */
  readonly revokeIsShared?: boolean;
}
