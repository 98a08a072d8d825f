import type { components } from '../../../generated/api.js';
import type { AdapterAccount } from '../types.js';

/** An ad account a person's grant reaches, as the platform lists it. */
export interface UsableAdAccount {
  id: string;
  name: string;
  currency: string;
  timezone: string;
  platformStatus: components['schemas']['AdAccountPlatformStatus'];
  businessName: string | null;
  /** What the person may do with it (the platform's own words). */
  tasks: string[];
}

export interface AdAccountPage {
  items: UsableAdAccount[];
  /** The platform's cursor of the next page; null on the last. */
  nextCursor: string | null;
}

/**
 * Ads, the same on every ad platform. Today: the ad accounts a person's grant reaches, to choose among and
 * connect with the grant's token (a platform whose consent itself names the ad accounts grants them with the
 * OAuth flow as well, see `ConnectingFlow.adAccounts`), and a connected one read again. What the ads area needs of
 * connected ad accounts (an `AdapterAccount` whose `platformAccountId` is the ad account's id there) joins here.
 */
export interface Ads {
  /** One page of the ad accounts the token may use. */
  adAccounts(userToken: string, limit: number, after?: string): Promise<AdAccountPage>;
  /** The chosen ones among all of them, by id; those not found are absent. */
  findAdAccounts(userToken: string, ids: string[]): Promise<Map<string, UsableAdAccount>>;
  /**
   * A connected ad account as the platform shows it now (its status, its name). Its token refused, or no longer
   * reaching it, is a `PlatformError` (`auth_expired`, `permission_revoked`).
   */
  adAccount(account: AdapterAccount): Promise<UsableAdAccount>;
  /** Subscribes the service's app to the ad account's webhooks (issues, status changes), where a platform wants that per ad account. */
  subscribeAdAccount?(adAccountId: string, userToken: string): Promise<void>;
}
