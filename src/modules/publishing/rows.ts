import type { components } from '../../../generated/api.js';

export type Post = components['schemas']['Post'];
export type PostStatus = components['schemas']['PostStatus'];
export type PostTarget = components['schemas']['PostTarget'];
export type TargetStatus = components['schemas']['PostTargetStatus'];
export type TargetFailure = components['schemas']['PostTargetFailure'];
export type PlatformOptions = components['schemas']['PostPlatformOptions'];

/** A row of `posts` (knex maps the columns to camelCase). */
export interface PostRow {
  id: string;
  ownerId: string;
  profileId: string;
  status: PostStatus;
  text: string | null;
  mediaIds: string[];
  platformOptions: Record<string, Record<string, unknown>>;
  scheduledAt: Date;
  publishNow: boolean;
  publishedAt: Date | null;
  timezone: string | null;
  slotId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A row of `post_targets`: the post on one account, and its place in the publishing work queue. */
export interface TargetRow {
  postId: string;
  accountId: string;
  position: number;
  platform: string;
  status: TargetStatus;
  platformPostId: string | null;
  url: string | null;
  publishedAt: Date | null;
  attempts: number;
  failure: TargetFailure | null;
  dueAt: Date | null;
  /** The post's `scheduledAt`, written with it: the order of the post list filtered by account. */
  scheduledAt: Date;
  lockedUntil: Date | null;
  attemptStartedAt: Date | null;
  progress: Record<string, unknown>;
}

export interface SlotRow {
  id: string;
  ownerId: string;
  profileId: string;
  /** The accounts the slot is kept for, in id order; null: every account of the profile. */
  accountIds: string[] | null;
  dayOfWeek: number;
  time: string;
  timezone: string;
  createdAt: Date;
}

const TARGET_COLUMNS = [
  'post_id',
  'account_id',
  'position',
  'platform',
  'status',
  'platform_post_id',
  'url',
  'published_at',
  'attempts',
  'failure',
  'due_at',
  'scheduled_at',
  'locked_until',
  'attempt_started_at',
  'progress',
];
const POST_COLUMNS = [
  'id',
  'owner_id',
  'profile_id',
  'status',
  'text',
  'media_ids',
  'platform_options',
  'scheduled_at',
  'publish_now',
  'published_at',
  'timezone',
  'slot_id',
  'created_at',
  'updated_at',
];

/** `columns` of the table named `alias`, each under its camelCase name after `prefix` (knex maps only its builder's). */
function camelColumns(alias: string, columns: string[], prefix: string): string {
  return columns
    .map((column) => `${alias}.${column} AS "${prefix}${column.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())}"`)
    .join(', ');
}

/** The columns of post_targets under their camelCase names, for raw statements. */
export function targetColumns(alias = 'post_targets'): string {
  return camelColumns(alias, TARGET_COLUMNS, '');
}

/** What settling a post reads of it: enough to give it its status and present its event, not its content. */
export type SettlingPost = Pick<PostRow, 'id' | 'ownerId' | 'profileId' | 'status' | 'publishNow' | 'scheduledAt'>;
export const SETTLING_POST_COLUMNS = ['id', 'owner_id', 'profile_id', 'status', 'publish_now', 'scheduled_at'];

/**
 * The columns of posts (`columns`, or all) under their camelCase names, for raw statements; `beside`: after
 * `post.`, in a row of another table's.
 */
export function postColumns(alias = 'posts', beside = false, columns = POST_COLUMNS): string {
  return camelColumns(alias, columns, beside ? POST_PREFIX : '');
}

const POST_PREFIX = 'post.';

/** A row that has its post's columns beside its own (`postColumns(alias, true)`): the post, and the rest. */
export function besidePost<Rest, Post = PostRow>(row: Record<string, unknown>): { post: Post; rest: Rest } {
  const post: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) {
    if (name.startsWith(POST_PREFIX)) post[name.slice(POST_PREFIX.length)] = value;
    else rest[name] = value;
  }
  return { post: post as Post, rest: rest as Rest };
}
