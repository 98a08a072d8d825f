import type { AdAccountPage, Ads, UsableAdAccount } from '../capabilities/ads.js';
import { PlatformError } from '../errors.js';
import { type GraphList, nextCursorOf } from '../meta/graph.js';
import type { AdapterAccount } from '../types.js';
import type { SocialNetworkClient } from './client.js';
import { findListed, SCAN_LIMIT } from './listing.js';

interface GraphAdAccount {
  id: string;
  name?: string;
  account_status?: number;
  currency?: string;
  timezone_name?: string;
  business?: { name?: string };
  user_tasks?: string[];
}

const AD_ACCOUNT_FIELDS = 'id,name,account_status,currency,timezone_name,business{name},user_tasks';

/** Meta's numeric `account_status`, in the contract's words; 8 is "pending settlement", an unpaid balance. */
const AD_ACCOUNT_STATUS: Record<number, UsableAdAccount['platformStatus']> = {
  1: 'active',
  2: 'disabled',
  3: 'unsettled',
  7: 'pending_review',
  8: 'unsettled',
  9: 'in_grace_period',
  100: 'pending_closure',
  101: 'closed',
};

function adAccount(raw: GraphAdAccount): UsableAdAccount {
  return {
    id: raw.id,
    name: raw.name ?? raw.id,
    currency: raw.currency ?? 'USD',
    timezone: raw.timezone_name ?? 'UTC',
    platformStatus: AD_ACCOUNT_STATUS[raw.account_status ?? 0] ?? 'unknown',
    businessName: raw.business?.name ?? null,
    tasks: raw.user_tasks ?? [],
  };
}

/** The ad accounts a user may use (`GET /me/adaccounts`), read with the user token a pending connection or an ad account keeps. */
export class SocialNetworkAds implements Ads {
  constructor(
    private readonly client: SocialNetworkClient,
    private readonly appId: string,
  ) {}

  async adAccounts(userToken: string, limit: number, after?: string): Promise<AdAccountPage> {
    const list = await this.client.call<GraphList<GraphAdAccount>>('GET', 'me/adaccounts', {
      token: userToken,
      query: { fields: AD_ACCOUNT_FIELDS, limit, after },
    });
    return { items: list.data.map(adAccount), nextCursor: nextCursorOf(list) };
  }

  findAdAccounts(userToken: string, ids: string[]): Promise<Map<string, UsableAdAccount>> {
    return findListed(ids, (after) => this.adAccounts(userToken, SCAN_LIMIT, after));
  }

  /** Found among the user's ad accounts: one the person can no longer use is not listed there any more. */
  async adAccount(account: AdapterAccount): Promise<UsableAdAccount> {
    const found = (await this.findAdAccounts(account.credentials.accessToken, [account.platformAccountId])).get(account.platformAccountId);
    if (!found) throw new PlatformError('permission_revoked', 'the person who connected the ad account can no longer use it');
    return found;
  }

  async subscribeAdAccount(adAccountId: string, userToken: string): Promise<void> {
    await this.client.call('POST', `${adAccountId}/subscribed_apps`, { token: userToken, form: { app_id: this.appId } });
  }

  /** Our app unsubscribed from the ad account's webhooks. The Graph answers an app not subscribed the same. */
  async unsubscribeAdAccount(adAccountId: string, userToken: string): Promise<void> {
    await this.client.call('DELETE', `${adAccountId}/subscribed_apps`, { token: userToken, query: { app_id: this.appId } });
  }
}
