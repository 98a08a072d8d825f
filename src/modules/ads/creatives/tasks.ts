import type { Knex } from 'knex';
import type { components } from '../../../../generated/api.js';
import { NotFoundError } from '../../../lib/errors.js';
import { type AdAccountId, newId } from '../../../lib/ids.js';
import type { CreativeContent } from '../../../platforms/capabilities/ad-creatives.js';
import type { Services } from '../../../services.js';
import { findAdAccount } from '../../accounts/read.js';
import type { Principal } from '../../auth/principal.js';

export type AdCreative = components['schemas']['AdCreative'];
export type AdCreativeTask = components['schemas']['AdCreativeTask'];
type TaskError = NonNullable<AdCreativeTask['error']>;

/** What the worker creates once the video is ready: the creative's name, its content but the video's cover, and as asked. */
export interface TaskRequest {
  name: string;
  content: CreativeContent;
  asked: Pick<AdCreative, 'objectStoryId' | 'objectStorySpec'>;
}

export interface TaskRow {
  id: string;
  ownerId: string;
  adAccountId: AdAccountId;
  writeKey: string;
  status: AdCreativeTask['status'];
  videoId: string;
  request: TaskRequest;
  creative: AdCreative | null;
  error: TaskError | null;
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
  deadlineAt: Date;
  createdAt: Date;
  completedAt: Date | null;
}

export function presentTask(row: TaskRow): AdCreativeTask {
  return {
    taskId: row.id,
    adAccountId: row.adAccountId,
    status: row.status,
    videoId: row.videoId,
    creative: row.creative,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/**
 * The task of a creative waiting for its video, accepted once per write key: a retry of the request (its
 * Idempotency-Key) finds the task the first made.
 */
export async function acceptTask(
  services: Services,
  task: { ownerId: string; adAccountId: AdAccountId; writeKey: string; videoId: string; request: TaskRequest },
): Promise<TaskRow> {
  const { db, config } = services;
  const inserted = (await db('adCreativeTasks')
    .insert({
      id: newId('crtask'),
      ...task,
      status: 'processing',
      request: JSON.stringify(task.request),
      nextAttemptAt: new Date(Date.now() + config.adCreatives.videoPollMs),
      deadlineAt: new Date(Date.now() + config.adCreatives.videoDeadlineSeconds * 1000),
    })
    .onConflict(['ownerId', 'writeKey'])
    .ignore()
    .returning('*')) as TaskRow[];
  return inserted[0] ?? ((await db('adCreativeTasks').where({ ownerId: task.ownerId, writeKey: task.writeKey }).first()) as TaskRow);
}

/** The owner's task, or 404; 403 when its ad account's profile is outside the key's. */
export async function findTask(db: Knex, principal: Principal, id: string): Promise<TaskRow> {
  const row = (await db('adCreativeTasks').where({ id, ownerId: principal.ownerId }).first()) as TaskRow | undefined;
  if (!row) throw new NotFoundError('ad creative task');
  await findAdAccount(db, principal, row.adAccountId);
  return row;
}
