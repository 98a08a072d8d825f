import { ApiError } from '../../../lib/errors.js';
import { type ClaimLoop, type LeasedWork, type LeaseWorkerSettings, claimInBatches, dueRowIds } from '../../../lib/lease-worker.js';
import type { CreativeContent } from '../../../platforms/capabilities/ad-creatives.js';
import type { Services } from '../../../services.js';
import { withAdAccount } from '../access.js';
import { ownerItself } from '../../auth/principal.js';
import { createOnce, rejected } from './create.js';
import { AdPlatformRejectedError } from '../errors.js';
import type { AdCreative, AdCreativeTask, TaskRow } from './tasks.js';

type Outcome =
  | { kind: 'succeeded'; creative: AdCreative }
  | { kind: 'failed'; error: NonNullable<AdCreativeTask['error']> }
  | { kind: 'later'; attempted: boolean };

const CLAIM_BATCH = 20;

/** A video story's cover: the one asked for, else the frame the platform picked once the video is ready. */
function withCover(content: CreativeContent, pictureUrl: string | null): CreativeContent {
  if (!('story' in content) || content.story.kind !== 'video' || content.story.thumbnailUrl) return content;
  return { story: { ...content.story, thumbnailUrl: pictureUrl ?? '' } };
}

/**
 * Finishes creatives that wait for their video: each due task's video is looked at (one call); once the platform
 * has processed it, the creative is created under the request's write key (at most once, whatever the crashes),
 * and the task succeeds; a video the platform could not process, or a refusal, fails it. A video still processing,
 * or a platform that failed for now, is looked at again after the poll, until the task's deadline.
 */
export class AdCreativeTaskWork implements LeasedWork<TaskRow, Outcome> {
  readonly settings: LeaseWorkerSettings;

  constructor(private readonly services: Services) {
    const { concurrency, leaseSeconds, videoPollMs } = services.config.adCreatives;
    this.settings = {
      name: 'socialgate-ad-creatives',
      channels: [],
      concurrency,
      pollMs: Math.min(videoPollMs, 1000),
      loops: 1,
      leaseSeconds,
    };
  }

  turn(loop: ClaimLoop<TaskRow>): Promise<void> {
    return claimInBatches(loop, CLAIM_BATCH, this.settings.pollMs, (n) => this.claimDue(n));
  }

  private async claimDue(n: number): Promise<TaskRow[]> {
    if (n <= 0) return [];
    const { db } = this.services;
    return (await db('adCreativeTasks')
      .whereIn('id', dueRowIds(db, 'adCreativeTasks', ['processing'], n))
      .update({ lockedUntil: db.raw('now() + make_interval(secs => ?)', [this.settings.leaseSeconds]) })
      .returning('*')) as TaskRow[];
  }

  async process(task: TaskRow): Promise<Outcome> {
    try {
      return await withAdAccount(
        'adCreatives',
        this.services,
        ownerItself(task.ownerId),
        task.adAccountId,
        { handle: rejected },
        async (creatives, account, row): Promise<Outcome> => {
          const video = await creatives.video(account, task.videoId);
          if (video.status === 'error')
            return {
              kind: 'failed',
              error: { code: 'video_processing_failed', detail: video.error ?? 'The video could not be processed.' },
            };
          if (video.status === 'processing') return this.later(task, false, 'The platform was still processing the video.');
          const request = { ...task.request, content: withCover(task.request.content, video.pictureUrl) };
          return {
            kind: 'succeeded',
            creative: await createOnce(this.services, creatives, account, row, task.writeKey, request),
          };
        },
      );
    } catch (error) {
      if (error instanceof AdPlatformRejectedError)
        return { kind: 'failed', error: { code: 'ad_platform_rejected', detail: error.detail } };
      // The ad account needs reconnecting, the platform is down or throttles: looked at again until the deadline.
      if (error instanceof ApiError) return this.later(task, true, error.detail);
      throw error;
    }
  }

  private later(task: TaskRow, attempted: boolean, why: string): Outcome {
    if (Date.now() < task.deadlineAt.getTime()) return { kind: 'later', attempted };
    return { kind: 'failed', error: { code: 'timeout', detail: `The video was not ready in time for the creative. ${why}` } };
  }

  async record(task: TaskRow, outcome: Outcome): Promise<void> {
    const { db, config } = this.services;
    const processing = db('adCreativeTasks').where({ id: task.id, status: 'processing' });
    switch (outcome.kind) {
      case 'later':
        await processing.update({
          attempts: task.attempts + (outcome.attempted ? 1 : 0),
          nextAttemptAt: new Date(Date.now() + config.adCreatives.videoPollMs),
          lockedUntil: null,
        });
        return;
      case 'failed':
        await processing.update({ status: 'failed', error: JSON.stringify(outcome.error), completedAt: db.fn.now(), lockedUntil: null });
        return;
      case 'succeeded':
        await processing.update({
          status: 'succeeded',
          creative: JSON.stringify(outcome.creative),
          completedAt: db.fn.now(),
          lockedUntil: null,
        });
    }
  }

  async renew(tasks: TaskRow[]): Promise<void> {
    await this.services.db.raw(
      `UPDATE ad_creative_tasks SET locked_until = now() + make_interval(secs => ?) WHERE id = ANY(?) AND status = 'processing'`,
      [this.settings.leaseSeconds, tasks.map((task) => task.id)],
    );
  }

  describe(task: TaskRow): Record<string, unknown> {
    return { adCreativeTaskId: task.id, adAccountId: task.adAccountId };
  }
}
