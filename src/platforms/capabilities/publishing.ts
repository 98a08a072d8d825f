import type { components } from '../../../generated/api.js';
import { PlatformError, type PlatformFailure } from '../errors.js';
import type { AdapterAccount } from '../types.js';

export type RuleCode = components['schemas']['PostValidationError']['code'];
export type FailureCode = components['schemas']['PostTargetFailure']['code'];

/** A media file as a platform sees it: what its rules check, and the public URL it fetches the bytes from. */
export interface PublishMedia {
  id: string;
  kind: 'image' | 'gif' | 'video' | 'audio' | 'document';
  mimeType: string;
  size: number;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  /** Frames per second of a video, as probed. */
  frameRate: number | null;
  url: string;
}

/** One target's content: the post's text and media, and the options of this target's platform only. */
export interface PublishContent {
  text: string | null;
  media: PublishMedia[];
  options: Record<string, unknown>;
}

/** A rule of the platform the content breaks; `path` is below `body/` (`text`, `mediaIds/0`, `platformOptions/botchat/chatIds`). */
export interface RuleViolation {
  path: string;
  message: string;
  code: RuleCode;
  limit?: number | null;
}

/** A member of a post that a platform may let an app change once the post is published, as `PATCH /posts/{id}` names it. */
export type EditableMember = 'text';

/** An edit of a published post: the members changed (each one its platform's `editable` lists), and the post's content as it becomes. */
export interface PublishedEdit {
  changed: readonly EditableMember[];
  content: PublishContent;
}

export interface Published {
  platformPostId: string;
  url: string | null;
  /** What to keep with the target for later (every chat's message id, for deleting them all); replaces the progress. */
  state?: Record<string, unknown>;
}

/**
 * What one publication has done so far (the chats sent to, a media container created), kept with the target.
 * An adapter that calls the platform more than once saves it between the calls, so that a later attempt
 * resumes instead of repeating a step the platform has already taken.
 */
export interface PublishProgress {
  state: Record<string, unknown>;
  save(state: Record<string, unknown>): Promise<void>;
}

/** A query of an account's posts on its platform: `cursor` is the platform's own, from the previous page. */
export interface HistoryQuery {
  from?: Date;
  to?: Date;
  limit: number;
  cursor?: string;
}

export type HistoryMetrics = components['schemas']['AccountHistoryMetrics'];

/** A post as the platform lists it. */
export interface HistoryPost {
  platformPostId: string;
  text: string | null;
  url: string | null;
  mediaUrls: string[];
  publishedAt: Date;
  metrics: HistoryMetrics | null;
}

export interface HistoryPage {
  posts: HistoryPost[];
  /** The platform's cursor of the next page; null on the last. */
  nextCursor: string | null;
}

/**
 * Publishing to a platform. `validate` runs before a post is accepted; `publish` raises PlatformError (or
 * PublishRefused) and never retries or sleeps — the caller decides. `reconcile` answers whether an attempt
 * whose answer was lost published after all; a platform without it cannot tell, and such a target is failed
 * with `unknown` rather than risk posting twice. `delete` is absent where apps cannot delete posts.
 */
export interface Publisher {
  validate(content: PublishContent): RuleViolation[];
  publish(account: AdapterAccount, content: PublishContent, progress: PublishProgress): Promise<Published>;
  reconcile?(account: AdapterAccount, content: PublishContent, state: Record<string, unknown>, since: Date): Promise<Published | null>;
  delete?(account: AdapterAccount, platformPostId: string, state: Record<string, unknown>): Promise<void>;
  /** The account's posts on the platform, newest first, whether made through us or not; absent where the platform has no history. */
  history?(account: AdapterAccount, query: HistoryQuery): Promise<HistoryPage>;
  /**
   * What an app may change of a post once it is published: `PATCH /posts/{id}` takes these members for a published
   * post and its description says them per platform. Absent where the platform lets apps change nothing; `edit` is
   * there exactly when this is.
   */
  readonly editable?: readonly EditableMember[];
  /**
   * Changes the published post in place (all of it: every chat's message), setting the `changed` members to those of
   * `change.content`; `state` is what `publish` kept. Setting a member to the value it has already succeeds, so an
   * edit whose answer was lost may be sent again. A post gone from the platform is PostNotFound.
   */
  edit?(account: AdapterAccount, platformPostId: string, state: Record<string, unknown>, change: PublishedEdit): Promise<void>;
}

/**
 * Raised by `publish` or `reconcile` when the platform has accepted the work and is still processing it (a media
 * container, a video upload). The progress is saved first; the target is checked again after `checkAfterMs`
 * and that check is not counted as an attempt. The adapter's next `publish` resumes from the saved progress.
 */
export class StillProcessing extends Error {
  constructor(
    readonly checkAfterMs: number,
    what = 'the platform is still processing the post',
  ) {
    super(what);
    this.name = 'StillProcessing';
  }
}

/**
 * Raised by `reconcile` when this attempt's outcome cannot be found out (the answer that named the post was lost,
 * and the platform cannot be asked without it): the target fails as `unknown`, for the user to look and retry.
 */
export class OutcomeUnknowable extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'OutcomeUnknowable';
  }
}

/** The platform has no such post on the account (deleted already, or never there): raised by `delete`. */
export class PostNotFound extends PlatformError {
  constructor(platformPostId: string, details: PlatformError['details'] = {}) {
    super('invalid_request', `the platform has no post ${platformPostId} on this account`, details);
    this.name = 'PostNotFound';
  }
}

/** A refusal whose user-facing reason the adapter knows better than the generic mapping (a chat not found, a blocked bot). */
export class PublishRefused extends PlatformError {
  constructor(
    kind: PlatformFailure,
    message: string,
    readonly failure: FailureCode,
    details: PlatformError['details'] = {},
  ) {
    super(kind, message, details);
    this.name = 'PublishRefused';
  }
}
