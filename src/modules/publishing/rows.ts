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

/** The columns of post_targets under their camelCase names, for raw statements (knex maps only its builder's). */
export function targetColumns(alias = 'post_targets'): string {
  const columns: Array<[string, string]> = [
    ['post_id', 'postId'],
    ['account_id', 'accountId'],
    ['position', 'position'],
    ['platform', 'platform'],
    ['status', 'status'],
    ['platform_post_id', 'platformPostId'],
    ['url', 'url'],
    ['published_at', 'publishedAt'],
    ['attempts', 'attempts'],
    ['failure', 'failure'],
    ['due_at', 'dueAt'],
    ['scheduled_at', 'scheduledAt'],
    ['locked_until', 'lockedUntil'],
    ['attempt_started_at', 'attemptStartedAt'],
    ['progress', 'progress'],
  ];
  return columns.map(([column, name]) => `${alias}.${column} AS "${name}"`).join(', ');
}

export const POST_COLUMNS = `id, owner_id AS "ownerId", profile_id AS "profileId", status, text, media_ids AS "mediaIds",
  platform_options AS "platformOptions", scheduled_at AS "scheduledAt", publish_now AS "publishNow",
  published_at AS "publishedAt", timezone, slot_id AS "slotId", created_at AS "createdAt", updated_at AS "updatedAt"`;
