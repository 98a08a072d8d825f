import type { components } from '../../../generated/api.js';
import type { GraphList } from '../meta/graph.js';
import { nextCursorOf } from '../meta/graph.js';
import type { SocialNetworkClient } from './client.js';

type AdAccountPlatformStatus = components['schemas']['AdAccountPlatformStatus'];

/** A page the user manages, as `GET /me/accounts` lists it, with its page token. */
export interface ManagedPage {
  id: string;
  name: string;
  category: string | null;
  pictureUrl: string | null;
  username: string | null;
  tasks: string[];
  accessToken: string;
}

/** An ad account the user may use, as `GET /me/adaccounts` lists it. */
export interface UsableAdAccount {
  id: string;
  name: string;
  currency: string;
  timezone: string;
  platformStatus: AdAccountPlatformStatus;
  businessName: string | null;
  tasks: string[];
}

export interface AssetPage<T> {
  items: T[];
  nextCursor: string | null;
}

interface GraphPage { id: string; name: string; category?: string; access_token?: string; tasks?: string[]; username?: string; picture?: { data?: { url?: string } } }
interface GraphAdAccount {
  id: string; name?: string; account_status?: number; currency?: string; timezone_name?: string; business?: { name?: string }; user_tasks?: string[];
}

const PAGE_FIELDS = 'id,name,category,access_token,tasks,username,picture{url}';
const AD_ACCOUNT_FIELDS = 'id,name,account_status,currency,timezone_name,business{name},user_tasks';
/** Graph's largest page of `/me/accounts`; finding chosen pages walks at most this many pages of them. */
const SCAN_LIMIT = 100;
const SCAN_PAGES = 50;

/** Meta's numeric `account_status`, in the contract's words; 8 is "pending settlement", an unpaid balance. */
const AD_ACCOUNT_STATUS: Record<number, AdAccountPlatformStatus> = {
  1: 'active', 2: 'disabled', 3: 'unsettled', 7: 'pending_review', 8: 'unsettled', 9: 'in_grace_period', 100: 'pending_closure', 101: 'closed',
};

function page(raw: GraphPage): ManagedPage {
  return {
    id: raw.id, name: raw.name, category: raw.category ?? null, pictureUrl: raw.picture?.data?.url ?? null, username: raw.username ?? null,
    tasks: raw.tasks ?? [], accessToken: raw.access_token ?? '',
  };
}

function adAccount(raw: GraphAdAccount): UsableAdAccount {
  return {
    id: raw.id, name: raw.name ?? raw.id, currency: raw.currency ?? 'USD', timezone: raw.timezone_name ?? 'UTC',
    platformStatus: AD_ACCOUNT_STATUS[raw.account_status ?? 0] ?? 'unknown', businessName: raw.business?.name ?? null, tasks: raw.user_tasks ?? [],
  };
}

/** The user's pages and ad accounts, read with the user token a pending connection keeps. */
export class SocialNetworkAssets {
  constructor(private readonly client: SocialNetworkClient) {}

  private get<T>(path: string, token: string, query: Record<string, string | number | undefined>): Promise<T> {
    return this.client.call<T>('GET', path, { token, query });
  }

  async pages(userToken: string, limit: number, after?: string): Promise<AssetPage<ManagedPage>> {
    const list = await this.get<GraphList<GraphPage>>('me/accounts', userToken, { fields: PAGE_FIELDS, limit, after });
    return { items: list.data.map(page), nextCursor: nextCursorOf(list) };
  }

  async adAccounts(userToken: string, limit: number, after?: string): Promise<AssetPage<UsableAdAccount>> {
    const list = await this.get<GraphList<GraphAdAccount>>('me/adaccounts', userToken, { fields: AD_ACCOUNT_FIELDS, limit, after });
    return { items: list.data.map(adAccount), nextCursor: nextCursorOf(list) };
  }

  /** The chosen pages among all the user manages (walking the list), by id; missing ones are absent. */
  findPages(userToken: string, ids: string[]): Promise<Map<string, ManagedPage>> {
    return this.find(ids, (after) => this.pages(userToken, SCAN_LIMIT, after));
  }

  findAdAccounts(userToken: string, ids: string[]): Promise<Map<string, UsableAdAccount>> {
    return this.find(ids, (after) => this.adAccounts(userToken, SCAN_LIMIT, after));
  }

  private async find<T extends { id: string }>(ids: string[], read: (after?: string) => Promise<AssetPage<T>>): Promise<Map<string, T>> {
    const wanted = new Set(ids);
    const found = new Map<string, T>();
    let after: string | undefined;
    for (let round = 0; round < SCAN_PAGES; round += 1) {
      const batch = await read(after);
      for (const item of batch.items) if (wanted.has(item.id)) found.set(item.id, item);
      if (found.size === wanted.size || !batch.nextCursor) break;
      after = batch.nextCursor;
    }
    return found;
  }

  /** Subscribes our app to the page's webhooks; only fields the app subscribes to as well are delivered. */
  async subscribePage(pageId: string, pageToken: string): Promise<void> {
    await this.client.call('POST', `${pageId}/subscribed_apps`, { token: pageToken, form: { subscribed_fields: 'messages,feed,leadgen' } });
  }

  /** Subscribes our app to the ad account's webhooks (issues, status changes, recommendations). */
  async subscribeAdAccount(adAccountId: string, userToken: string, appId: string): Promise<void> {
    await this.client.call('POST', `${adAccountId}/subscribed_apps`, { token: userToken, form: { app_id: appId } });
  }
}
