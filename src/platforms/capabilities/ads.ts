import type { components } from '../../../generated/api.js';

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
 * Ads. Today: the ad accounts a person's grant reaches, to choose among and connect with the grant's user token
 * (a platform whose consent itself names the ad accounts grants them with the OAuth flow instead, see
 * `ConnectingFlow.adAccounts`). What the ads area needs of connected ad accounts joins here.
 */
export interface Ads {
  /** One page of the ad accounts the user token may use. */
  adAccounts(userToken: string, limit: number, after?: string): Promise<AdAccountPage>;
  /** The chosen ones among all of them (walking the list), by id; those not found are absent. */
  findAdAccounts(userToken: string, ids: string[]): Promise<Map<string, UsableAdAccount>>;
  /** Subscribes the service's app to the ad account's webhooks (issues, status changes). */
  subscribeAdAccount(adAccountId: string, userToken: string): Promise<void>;
}
