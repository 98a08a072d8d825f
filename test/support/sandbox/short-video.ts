import { expect } from 'chai';
import type { TestApp } from '../app.js';
import type { TestOwner } from '../owners.js';
import { authorise } from './oauth.js';
import { People } from './people.js';

export interface SandboxCreator {
  openId: string;
  unionId: string;
  username: string;
  displayName: string;
}

export interface PlatformPost {
  id: string;
  kind: string;
  title: string;
  description: string;
  privacyLevel: string;
  publishId: string | null;
  sha256: string | null;
  size: number;
  contentType: string | null;
}

export interface PlatformInit {
  publishId: string;
  status: string;
  failReason: string | null;
  postInfo: any;
  chunks: number[];
}

/** The creator's settings in the app, as creator_info reports them. */
export interface CreatorSettings {
  privacyLevelOptions?: string[];
  maxVideoPostDurationSec?: number;
  commentDisabled?: boolean;
}

export interface ShortVideoSettings {
  accessTokenTtlSeconds?: number;
  rateLimited?: boolean;
  processingMs?: number;
  unaudited?: boolean;
}

/** The people of the short-video network: creators, what they do in the app, and the platform's review. */
export class ShortVideoPeople extends People {
  constructor(app: () => TestApp) {
    super(app, 'short_video');
  }

  /** Where the platform sends its webhooks: the callback URL set in the developer portal. */
  private get webhookUrl(): string {
    return `${this.app().services.config.publicUrl}/webhooks/short_video`;
  }

  newCreator(displayName = 'Clip Maker'): Promise<SandboxCreator> {
    return this.post('users', { displayName });
  }

  /** The creator changes their settings in the app. */
  async changeCreatorSettings(openId: string, settings: CreatorSettings): Promise<void> {
    await this.post('creator', { openId, ...settings });
  }

  async configure(settings: ShortVideoSettings): Promise<void> {
    await this.post('settings', settings);
  }

  /** The creator removes the app: every token of theirs stops working; with `webhook`, the platform sends authorization.removed. */
  removeApp(openId: string, { webhook }: { webhook: boolean }): Promise<{ webhookStatus: number | null }> {
    return this.post('remove-app', { openId, ...(webhook ? { webhookUrl: this.webhookUrl } : {}) });
  }

  async failNext(openId: string, faults: unknown[]): Promise<void> {
    await this.post('faults', { openId, faults });
  }

  /** A minute passes for the init limit: the creator's inits so far no longer count. */
  async minutePassed(openId: string): Promise<void> {
    await this.post('minute-passed', { openId });
  }

  /** The creator's followers now (`follower_count`). */
  async setFollowers(openId: string, followers: number): Promise<void> {
    await this.post('followers', { openId, followers });
  }

  /** A video the creator posted in the app. */
  postInApp(openId: string, title: string): Promise<{ id: string }> {
    return this.post('videos', { openId, title });
  }

  /** The platform's review passes a held post, and says so with a webhook. */
  passReview(postId: string): Promise<{ webhookStatus: number | null }> {
    return this.post('review', { postId, webhookUrl: this.webhookUrl });
  }

  /** Everything the platform holds for the creator: posts (private ones too) and every init it received. */
  onPlatform(openId: string): Promise<{ posts: PlatformPost[]; inits: PlatformInit[] }> {
    return this.get('posts', { openId });
  }
}

export interface Creator {
  accountId: string;
  openId: string;
  username: string;
}

/** A creator of their own (with `settings` in the app, granting `scope` when not all), connected to the owner's profile by the Login Kit dance. */
export async function connectCreator(
  app: TestApp,
  owner: TestOwner,
  options: { settings?: CreatorSettings; scope?: string } = {},
): Promise<Creator> {
  const people = new ShortVideoPeople(() => app);
  const creator = await people.newCreator();
  if (options.settings) await people.changeCreatorSettings(creator.openId, options.settings);
  const outcome = await authorise(app, owner, 'short_video', {
    fields: { open_id: creator.openId, ...(options.scope ? { scope: options.scope } : {}) },
  });
  const accountId = outcome.searchParams.get('accountIds')!;
  expect(accountId, outcome.toString()).to.match(/^acc_/);
  return { accountId, openId: creator.openId, username: creator.username };
}
