import { randomBytes } from 'node:crypto';
import type { ShortVideoState } from './state.js';

/** A creator's posting settings, as creator_info reports them (an unaudited app sees SELF_ONLY alone). */
export interface Creator {
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number;
}

/** One init: its upload (videos), what arrived, and — once processed — the post it became or why it failed. */
export interface Task {
  publishId: string;
  openId: string;
  kind: 'video' | 'photo';
  postInfo: Record<string, unknown>;
  createdAt: number;
  uploadId: string;
  uploadToken: string;
  upload: { size: number; chunk: number; count: number } | null;
  received: Buffer[];
  downloaded: number;
  contentType: string | null;
  sha256: string | null;
  status: 'PROCESSING' | 'PUBLISH_COMPLETE' | 'FAILED';
  failReason: string | null;
  postId: string | null;
}

export interface Post {
  id: string;
  openId: string;
  username: string;
  kind: 'video' | 'photo';
  title: string;
  description: string;
  privacyLevel: string;
  createdAtMs: number;
  publishId: string | null;
  sha256: string | null;
  size: number;
  contentType: string | null;
  durationSec: number;
  likes: number;
  comments: number;
  shares: number;
  views: number;
  /** Held for the platform's review: not public (no public id, not listed) until it passes. */
  underReview: boolean;
}

/**
 * What a test can switch on for a creator's next init: a refusal with the platform's code (`spam_risk_too_many_posts`),
 * a 500, an init that is made but never answered, a last chunk taken but never answered, or processing that ends in
 * FAILED with a `fail_reason`.
 */
export type Fault =
  | { kind: 'init_refused'; code: string; message?: string }
  | { kind: 'server_error' }
  | { kind: 'hang_after_init' }
  | { kind: 'hang_after_upload' }
  | { kind: 'fail'; reason: string }
  /** The post is made but held for review; `POST /_sandbox/short_video/review` passes it. */
  | { kind: 'review' };

const DEFAULT_CREATOR: Creator = {
  privacyLevelOptions: ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'],
  commentDisabled: false,
  duetDisabled: false,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
};

/**
 * What posting keeps across a restart: creators' settings, the inits (their status; not the bytes that arrived) and
 * the posts, and where ids and create times go on from. The minute's init count and faults waiting are not kept.
 */
export interface PostingSnapshot {
  creators: Map<string, Partial<Creator>>;
  tasks: Map<string, Task>;
  posts: Map<string, Post>;
  nextPostId: bigint;
  lastCreatedAtMs: number;
}

export class PostingState {
  readonly creators: Map<string, Partial<Creator>>;
  readonly tasks: Map<string, Task>;
  readonly posts: Map<string, Post>;
  /** Each user's init times of the last minute: 6 a minute are allowed. */
  readonly inits = new Map<string, number[]>();
  readonly faults = new Map<string, Fault[]>();
  /** 19 digits, past 2^53, as the real int64 ids are: a client that parses them as plain JSON numbers gets them wrong. */
  private nextPostId: bigint;
  private lastCreatedAtMs: number;

  constructor(
    private readonly login: ShortVideoState,
    restored?: PostingSnapshot,
  ) {
    this.creators = restored?.creators ?? new Map();
    this.tasks = restored?.tasks ?? new Map();
    this.posts = restored?.posts ?? new Map();
    this.nextPostId = restored?.nextPostId ?? 7_301_000_000_000_000_000n;
    this.lastCreatedAtMs = restored?.lastCreatedAtMs ?? 0;
  }

  snapshot(): PostingSnapshot {
    const tasks = new Map([...this.tasks].map(([id, task]) => [id, { ...task, received: [] }]));
    return { creators: this.creators, tasks, posts: this.posts, nextPostId: this.nextPostId, lastCreatedAtMs: this.lastCreatedAtMs };
  }

  creator(openId: string, unaudited: boolean): Creator {
    const creator = { ...DEFAULT_CREATOR, ...this.creators.get(openId) };
    return unaudited ? { ...creator, privacyLevelOptions: ['SELF_ONLY'] } : creator;
  }

  /** The creator's first pending fault of one of `kinds`, taken off the list. */
  takeFault<K extends Fault['kind']>(openId: string, kinds: K[]): Extract<Fault, { kind: K }> | undefined {
    const list = this.faults.get(openId) ?? [];
    const index = list.findIndex((fault) => (kinds as string[]).includes(fault.kind));
    if (index < 0) return undefined;
    return list.splice(index, 1)[0] as Extract<Fault, { kind: K }>;
  }

  newTask(openId: string, kind: Task['kind'], postInfo: Record<string, unknown>, upload: Task['upload']): Task {
    const task: Task = {
      publishId: `${kind === 'video' ? 'v_pub_file' : 'p_pub_url'}~v2.${randomBytes(12).toString('hex')}`,
      openId,
      kind,
      postInfo,
      createdAt: Date.now(),
      uploadId: randomBytes(8).toString('hex'),
      uploadToken: randomBytes(16).toString('base64url'),
      upload,
      received: [],
      downloaded: 0,
      contentType: null,
      sha256: null,
      status: 'PROCESSING',
      failReason: null,
      postId: null,
    };
    this.tasks.set(task.publishId, task);
    return task;
  }

  byUpload(uploadId: string, token: string): Task | undefined {
    return [...this.tasks.values()].find((task) => task.uploadId === uploadId && task.uploadToken === token);
  }

  /** Everything has arrived: after the processing time the post is made (or the task fails), asked about or not. */
  finishLater(task: Task): void {
    setTimeout(() => this.finish(task), this.login.settings.processingMs).unref();
  }

  private finish(task: Task): void {
    const failure = task.failReason ?? this.takeFault(task.openId, ['fail'])?.reason;
    if (failure) {
      task.status = 'FAILED';
      task.failReason = failure;
      return;
    }
    const size = task.received.reduce((sum, part) => sum + part.length, 0);
    const post = this.addPost(task.openId, {
      kind: task.kind,
      title: String(task.postInfo.title ?? ''),
      description: String(task.postInfo.description ?? task.postInfo.title ?? ''),
      privacyLevel: String(task.postInfo.privacy_level),
      publishId: task.publishId,
      sha256: task.sha256,
      size,
      contentType: task.contentType,
    });
    if (this.takeFault(task.openId, ['review'])) post.underReview = true;
    task.postId = post.id;
    task.status = 'PUBLISH_COMPLETE';
  }

  /** Seen by everyone: public, and not held for review. */
  static isPublic(post: Post): boolean {
    return post.privacyLevel === 'PUBLIC_TO_EVERYONE' && !post.underReview;
  }

  /** A post on the creator's profile: made through an init, or by the creator in the app (`publishId` null). */
  addPost(openId: string, fields: Partial<Post>): Post {
    // Strictly increasing create times, so that the list's time cursor never skips a post.
    const createdAtMs = Math.max(Date.now(), this.lastCreatedAtMs + 1);
    this.lastCreatedAtMs = createdAtMs;
    this.nextPostId += BigInt(1 + Math.floor(Math.random() * 1000));
    const post: Post = {
      id: String(this.nextPostId),
      openId,
      username: this.login.users.get(openId)?.username ?? 'creator',
      kind: 'video',
      title: '',
      description: '',
      privacyLevel: 'PUBLIC_TO_EVERYONE',
      createdAtMs,
      publishId: null,
      sha256: null,
      size: 0,
      contentType: null,
      durationSec: 15,
      likes: 12,
      comments: 3,
      shares: 1,
      views: 340,
      underReview: false,
      ...fields,
    };
    this.posts.set(post.id, post);
    return post;
  }
}
