import { type GraphList, nextCursorOf } from '../meta/graph.js';
import type { SocialNetworkClient } from './client.js';
import { findListed, type Listed, SCAN_LIMIT } from './listing.js';

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

interface GraphPage {
  id: string;
  name: string;
  category?: string;
  access_token?: string;
  tasks?: string[];
  username?: string;
  picture?: { data?: { url?: string } };
}

const PAGE_FIELDS = 'id,name,category,access_token,tasks,username,picture{url}';

function page(raw: GraphPage): ManagedPage {
  return {
    id: raw.id,
    name: raw.name,
    category: raw.category ?? null,
    pictureUrl: raw.picture?.data?.url ?? null,
    username: raw.username ?? null,
    tasks: raw.tasks ?? [],
    accessToken: raw.access_token ?? '',
  };
}

/** The pages a user manages, read with the user token a pending connection keeps, to choose among and connect. */
export class SocialNetworkPages {
  constructor(private readonly client: SocialNetworkClient) {}

  async list(userToken: string, limit: number, after?: string): Promise<Listed<ManagedPage>> {
    const list = await this.client.call<GraphList<GraphPage>>('GET', 'me/accounts', {
      token: userToken,
      query: { fields: PAGE_FIELDS, limit, after },
    });
    return { items: list.data.map(page), nextCursor: nextCursorOf(list) };
  }

  /** The chosen pages among all the user manages, by id; missing ones are absent. */
  find(userToken: string, ids: string[]): Promise<Map<string, ManagedPage>> {
    return findListed(ids, (after) => this.list(userToken, SCAN_LIMIT, after));
  }

  /** Subscribes our app to the page's webhooks; only fields the app subscribes to as well are delivered. */
  async subscribe(pageId: string, pageToken: string): Promise<void> {
    await this.client.call('POST', `${pageId}/subscribed_apps`, { token: pageToken, form: { subscribed_fields: 'messages,feed,leadgen' } });
  }

  /** Our app unsubscribed from the page's webhooks: its events stop coming. The Graph answers an app not subscribed the same. */
  async unsubscribe(pageId: string, pageToken: string): Promise<void> {
    await this.client.call('DELETE', `${pageId}/subscribed_apps`, { token: pageToken });
  }
}
