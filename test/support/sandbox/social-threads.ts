import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';
import { authorise, connectedAccountIds } from './oauth.js';
import { People } from './people.js';

export interface Posted {
  threads: Array<{
    id: string;
    text?: string;
    media_type: string;
    media_url?: string;
    timestamp: string;
    permalink: string;
    replyControl: string;
    children: number;
  }>;
  containers: Array<{ id: string; mediaType: string; status: string; isCarouselItem: boolean }>;
}

export interface SandboxReply {
  id: string;
  repliedToId: string;
  authorId: string | null;
  text: string | null;
  hidden: boolean;
  deleted: boolean;
}

export interface TokenSettings {
  longLivedTtlSeconds?: number;
  minRefreshAgeSeconds?: number;
}
export interface PublishingSettings {
  videoProcessingMs?: number;
  quotaTotal?: number;
}

/** The people of the threads network: people who connect, post in the app and remove apps; the platform's settings. */
export class SocialThreadsPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'social_threads');
  }

  /** A new person, signed in to the browser that opens the authorization page. */
  newPerson(username: string): Promise<{ userId: string; username: string }> {
    return this.post('users', { username });
  }

  /** The person removes the app: every token of theirs stops working (190, subcode 458). */
  async removeApp(userId: string): Promise<void> {
    await this.post('remove-app', { userId });
  }

  /** Token lifetimes, and how old a long-lived token must be before it can be refreshed. */
  async configure(settings: TokenSettings): Promise<void> {
    await this.post('settings', settings);
  }

  /** How long videos take to process, and the daily publishing quota. */
  async configurePublishing(settings: PublishingSettings): Promise<void> {
    await this.post('publishing', settings);
  }

  async failNext(userId: string, faults: unknown[]): Promise<void> {
    await this.post('faults', { userId, faults });
  }

  /** The person's followers now (`followers_count`). */
  async setFollowers(userId: string, followers: number): Promise<void> {
    await this.post('followers', { userId, followers });
  }

  /** A thread the person wrote in the app. */
  postInApp(userId: string, text: string): Promise<{ id: string }> {
    return this.post('threads', { userId, text });
  }

  /**
   * A person replies in the app to a thread or a reply (`username`: who they are); the `replies` webhook goes to
   * the dashboard's callback (twice with `duplicate`): its statuses.
   */
  reply(
    replyToId: string,
    text: string,
    options: { username?: string; duplicate?: boolean } = {},
  ): Promise<{ id: string; deliveries: Array<number | null> }> {
    return this.post('replies', { replyToId, text, username: 'lena.fischer', ...options });
  }

  /** The app's dashboard: the webhook's callback URL and verify token (checked by the handshake). */
  async configureWebhook(callbackUrl: string, verifyToken: string): Promise<void> {
    await this.post('webhooks', { callbackUrl, verifyToken });
  }

  /** Every reply under a thread, hidden and deleted ones too. */
  async replies(threadId: string): Promise<SandboxReply[]> {
    return (await this.get<{ replies: SandboxReply[] }>('replies', { threadId })).replies;
  }

  /** The person's containers left unpublished for a day expire: how many did. */
  async expireContainers(userId: string): Promise<number> {
    return (await this.post<{ expired: number }>('expire-containers', { userId })).expired;
  }

  /** What the person has on the platform: their threads (newest first) and every container made for them. */
  onPlatform(userId: string): Promise<Posted> {
    return this.get('posted', { userId });
  }
}

export interface ThreadsPerson {
  accountId: string;
  userId: string;
}

/** A new person, connected to the owner's profile through the OAuth dance (`scope`: what they grant, when not all). */
export async function connectThreads(app: TestApp, owner: TestOwner, scope?: string): Promise<ThreadsPerson> {
  const { userId } = await new SocialThreadsPeople(() => app).newPerson(`poster.${Date.now() % 100_000}`);
  const [accountId] = connectedAccountIds(await authorise(app, owner, 'social_threads', { fields: scope === undefined ? {} : { scope } }));
  return { accountId: accountId!, userId };
}
