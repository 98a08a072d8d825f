import { expect } from 'chai';
import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';
import { authorise, type DanceOptions } from './oauth.js';
import { People } from './people.js';

export interface SandboxPerson {
  userId: string;
  pageIds: string[];
  adAccountIds: string[];
}

export interface SandboxPagePost {
  id: string;
  message: string | null;
  link: string | null;
  photoUrls: string[];
  videoId: string | null;
  deleted: boolean;
  comments: Array<{
    id: string;
    message: string;
    fromPage: boolean;
    parentId?: string | null;
    hidden?: boolean;
    deleted?: boolean;
    attachmentUrl?: string;
  }>;
}

/** A comment as the Graph shows it, with the `feed` webhooks its change sent. */
export interface SandboxComment {
  comment: { id: string; message: string; from: { id: string; name: string }; parent?: { id: string } };
  deliveries: Array<{ url: string; status: number }>;
}

export interface PageContents {
  posts: SandboxPagePost[];
  videos: Array<{ id: string; status: string; postId: string }>;
  photosUploaded: number;
  unpublishedPhotos: number;
}

/** A Graph error, with the usage headers the platform sends along. */
export interface GraphFailure {
  status?: number;
  code: number;
  subcode?: number;
  message: string;
  headers?: Record<string, string>;
}

/** The people of the social network: people with pages and ad accounts, who write to pages and remove apps. */
export class SocialNetworkPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'social_network');
  }

  /** A new person with pages and an ad account, signed in to the browser that opens the login dialog. */
  async newPerson(input: { pages?: number; adAccounts?: number; declineScopes?: string[] } = {}): Promise<SandboxPerson> {
    const created = await this.post<SandboxPerson>('users', { name: 'Pat', ...input });
    await this.signIn(created.userId);
    return created;
  }

  /** Who is signed in to the browser that opens the login dialog. */
  async signIn(userId: string): Promise<void> {
    await this.post('login', { userId });
  }

  /** A person writes to a page: each app subscribed to the page's messages gets the Messenger webhook. */
  sendMessage(
    pageId: string,
    text: string,
    from = '6543210987654321',
  ): Promise<{ webhookStatus: number; deliveries: Array<{ url: string; status: number }> }> {
    return this.post('messages', { pageId, text, from });
  }

  /** A person comments on a page post (or answers a comment, `parentId`): the page's `feed` webhook goes out. */
  comment(postId: string, text: string, extra: { parentId?: string; from?: { id: string; name: string } } = {}): Promise<SandboxComment> {
    return this.post('comments', { postId, text, ...extra });
  }

  /** The person edits their comment: the `feed` webhook (`edited`) goes out. */
  editComment(commentId: string, text: string): Promise<SandboxComment> {
    return this.post(`comments/${commentId}/edit`, { text });
  }

  /** The person removes their comment: the `feed` webhook (`remove`) goes out. */
  removeComment(commentId: string): Promise<SandboxComment> {
    return this.post(`comments/${commentId}/remove`);
  }

  /**
   * The page's next comment changes meet these faults: `lost_answer` (a write done, its answer lost),
   * `duplicate_webhooks` (the next change's webhook sent twice), `hold_webhooks` (`count` webhooks held, then sent newest first).
   */
  async failComments(pageId: string, faults: Array<Record<string, unknown>>): Promise<void> {
    await this.post('comment-faults', { pageId, faults });
  }

  /** The person removes the app: its tokens stop working, then the deauthorize callback and the permissions webhook. */
  removeApp(userId: string): Promise<{ deauthorization: { status: number }; permissions: Array<{ status: number }> }> {
    return this.post('remove-app', { userId });
  }

  /** A token stops working (the person changed their password): 190 with subcode 460. */
  async revokeToken(accessToken: string): Promise<void> {
    await this.post('revoke', { accessToken });
  }

  /** The next Graph call, whatever it is, answers this error. */
  async failNextCall(failure: GraphFailure): Promise<void> {
    await this.post('fail-next', failure);
  }

  /** The page's next publishing calls meet these faults. */
  async failNext(pageId: string, faults: Array<Record<string, unknown>>): Promise<void> {
    await this.post('post-faults', { pageId, faults });
  }

  /** Someone posts on the page in the app; `reactions`, `shares` and `comments` are what people did since. */
  postInApp(
    pageId: string,
    message: string,
    extra: { reactions?: number; shares?: number; comments?: string[] } = {},
  ): Promise<{ id: string }> {
    return this.post('page-posts', { pageId, message, ...extra });
  }

  /** How many insights calls the page (and its posts) received. */
  async insightsCalls(pageId: string): Promise<number> {
    return (await this.get<{ calls: number }>('insights-calls', { pageId })).calls;
  }

  /** The platform removes an insights metric: naming it makes the whole call fail with (#100). */
  async removeMetric(metric: string): Promise<void> {
    await this.post('remove-metric', { metric });
  }

  /** Everything the page has at the platform, newest post first. */
  onPlatform(pageId: string): Promise<PageContents> {
    return this.get('page-posts', { pageId });
  }
}

/** A pending connection of the owner's profile, from an approved dance. */
export async function pendingConnection(app: TestApp, owner: TestOwner, options: DanceOptions = {}): Promise<string> {
  const outcome = await authorise(app, owner, 'social_network', options);
  expect(outcome.searchParams.get('status'), outcome.toString()).to.equal('pending_selection');
  return outcome.searchParams.get('pendingConnectionId')!;
}

export function connectPages(
  app: TestApp,
  owner: TestOwner,
  pendingConnectionId: string,
  platformPageIds: string[],
  profileId = owner.profileId,
) {
  return app.api.post(`/profiles/${profileId}/connect/social_network`, {
    token: owner.key,
    body: { pendingConnectionId, platformPageIds },
  });
}

export function connectAdAccounts(app: TestApp, owner: TestOwner, pendingConnectionId: string, platformAdAccountIds: string[]) {
  return app.api.post(`/profiles/${owner.profileId}/connect/social_network/adaccounts`, {
    token: owner.key,
    body: { pendingConnectionId, platformAdAccountIds },
  });
}

export interface ConnectedPage {
  accountId: string;
  pageId: string;
  userId: string;
}

/** A new person's page, connected to the owner's profile by the whole OAuth dance. */
export async function connectNewPage(app: TestApp, owner: TestOwner): Promise<ConnectedPage> {
  const created = await new SocialNetworkPeople(() => app).newPerson({ pages: 1, adAccounts: 0 });
  const connected = await connectPages(app, owner, await pendingConnection(app, owner), [created.pageIds[0]!]);
  expect(connected.status, JSON.stringify(connected.body)).to.equal(201);
  return { accountId: connected.body.data[0].id, pageId: created.pageIds[0]!, userId: created.userId };
}
