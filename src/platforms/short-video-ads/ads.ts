import type { AdAccountPage, Ads, UsableAdAccount } from '../capabilities/ads.js';
import { PlatformError } from '../errors.js';
import type { AdapterAccount } from '../types.js';
import type { BusinessApiClient } from './client.js';
import type { ShortVideoAdsSettings } from './settings.js';

/** An advertiser as `advertiser/info` answers it. */
export interface Advertiser {
  advertiser_id: string;
  name?: string;
  currency?: string;
  timezone?: string;
  display_timezone?: string;
  status?: string;
  [field: string]: unknown;
}

/** The advertiser's own state at the platform; anything not listed is `unknown`. */
const STATUSES: Record<string, UsableAdAccount['platformStatus']> = {
  STATUS_ENABLE: 'active',
  STATUS_DISABLE: 'disabled',
  STATUS_LIMIT: 'disabled',
  STATUS_CONFIRM_FAIL: 'disabled',
  STATUS_CONFIRM_FAIL_END: 'disabled',
  STATUS_PENDING_CONFIRM: 'pending_review',
  STATUS_PENDING_VERIFIED: 'pending_review',
  STATUS_PENDING_CONFIRM_MODIFY: 'pending_review',
  STATUS_WAIT_FOR_BPM_AUDIT: 'pending_review',
  STATUS_WAIT_FOR_PUBLIC_AUTH: 'pending_review',
  STATUS_SELF_SERVICE_UNAUDITED: 'pending_review',
  STATUS_CONTRACT_PENDING: 'pending_review',
};

const FIELDS = ['advertiser_id', 'name', 'currency', 'timezone', 'display_timezone', 'status', 'company', 'country', 'role'];
/** advertiser/info takes at most this many ids per call. */
const PAGE = 100;

function usable(advertiser: Advertiser): UsableAdAccount {
  return {
    id: String(advertiser.advertiser_id),
    name: (advertiser.name || String(advertiser.advertiser_id)).slice(0, 255),
    // XXX is ISO 4217's "no currency": the contract wants three letters even where the platform gave none.
    currency: /^[A-Za-z]{3}$/.test(advertiser.currency ?? '') ? advertiser.currency!.toUpperCase() : 'XXX',
    timezone: (advertiser.display_timezone || advertiser.timezone || 'UTC').slice(0, 64),
    platformStatus: STATUSES[advertiser.status ?? ''] ?? 'unknown',
    businessName: typeof advertiser.company === 'string' ? advertiser.company : null,
    tasks: typeof advertiser.role === 'string' ? [advertiser.role] : [],
  };
}

/**
 * The advertisers a token reaches (`oauth2/advertiser/get`, which needs the app's secret), read with
 * `advertiser/info`. The platform lists them all at once; our cursor is the offset of the next page in that list.
 */
export class ShortVideoAdsAds implements Ads {
  constructor(
    private readonly client: BusinessApiClient,
    private readonly app: Pick<ShortVideoAdsSettings, 'appId' | 'secret'>,
  ) {}

  async adAccounts(accessToken: string, limit: number, after?: string): Promise<AdAccountPage> {
    const query = new URLSearchParams({ app_id: this.app.appId, secret: this.app.secret });
    const granted = await this.client.call<{ list?: Array<{ advertiser_id: string | number }> }>(`/oauth2/advertiser/get/?${query}`, {
      accessToken,
    });
    const ids = (granted.list ?? []).map((advertiser) => String(advertiser.advertiser_id));
    const from = Number(after ?? 0) || 0;
    const chosen = ids.slice(from, from + Math.min(limit, PAGE));
    const items = chosen.length === 0 ? [] : (await this.advertisers(accessToken, chosen)).map(usable);
    return { items, nextCursor: from + chosen.length < ids.length ? String(from + chosen.length) : null };
  }

  async findAdAccounts(accessToken: string, ids: string[]): Promise<Map<string, UsableAdAccount>> {
    const found = new Map<string, UsableAdAccount>();
    for (let at = 0; at < ids.length; at += PAGE) {
      for (const advertiser of await this.advertisers(accessToken, ids.slice(at, at + PAGE)))
        found.set(String(advertiser.advertiser_id), usable(advertiser));
    }
    return found;
  }

  async adAccount(account: AdapterAccount): Promise<UsableAdAccount> {
    const [advertiser] = await this.advertisers(account.credentials.accessToken, [account.platformAccountId]);
    if (!advertiser) throw new PlatformError('permission_revoked', 'the advertiser is no longer granted to the app');
    return usable(advertiser);
  }

  /** The advertisers by id, as the platform answers them (at most 100); one the token does not reach is a refusal (40001). */
  advertisers(accessToken: string, ids: string[]): Promise<Advertiser[]> {
    // List parameters of GET calls are JSON arrays in the query string.
    const query = new URLSearchParams({ advertiser_ids: JSON.stringify(ids), fields: JSON.stringify(FIELDS) });
    return this.client.call<{ list?: Advertiser[] }>(`/advertiser/info/?${query}`, { accessToken }).then((data) => data.list ?? []);
  }
}
