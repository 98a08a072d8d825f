import { storedAccount } from '../accounts.js';
import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';
import { authorise, connectedAccountIds } from './oauth.js';
import { People } from './people.js';

export interface LocalPost {
  name: string;
  summary?: string;
  [field: string]: unknown;
}

export interface LocalPostFault {
  kind: 'rate_limited' | 'hang_after_create';
}

/** The people of the search suite: the business owner with their locations, and the suite's settings. */
export class SearchSuitePeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'search_suite');
  }

  async configure(settings: { accessTokenTtlSeconds: number }): Promise<void> {
    await this.post('settings', settings);
  }

  /** The user removes the app's access in their account settings: every token of every grant stops working. */
  async removeApp(): Promise<void> {
    await this.post('revoke-access');
  }

  /** A post the owner made in the platform's own app, at a location (its resource name). */
  postInApp(location: string, summary: string): Promise<LocalPost> {
    return this.post('local-posts', { location, summary });
  }

  /** The next local posts meet these faults (at any location). */
  async failNext(faults: LocalPostFault[]): Promise<void> {
    await this.post('faults', { faults });
  }
}

/** The sandbox's two business locations, connected by the OAuth dance: their account ids. */
export async function connectLocations(app: TestApp, owner: TestOwner): Promise<string[]> {
  return connectedAccountIds(await authorise(app, owner, 'search_suite'));
}

/**
 * A location's local posts as the platform lists them (newest first), read with the account's own token; only
 * those with `summary` when given (the sandbox's locations are shared by every test's owner).
 */
export async function localPosts(app: TestApp, accountId: string, summary?: string): Promise<LocalPost[]> {
  const {
    row,
    credentials: { accessToken },
  } = await storedAccount(app, accountId);
  const url = `${app.services.sandboxUrl}/search_suite/v4/${row.platformAccountId}/localPosts?pageSize=100`;
  const response = await fetch(url, { headers: { Authorization: `Bearer ${accessToken}` } });
  const posts = ((await response.json()) as { localPosts: LocalPost[] }).localPosts;
  return summary === undefined ? posts : posts.filter((post) => post.summary === summary);
}
