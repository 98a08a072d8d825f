import type { PlatformError } from '../errors.js';
import type { Insights, PostFigures } from '../capabilities/insights.js';
import { PostNotFound } from '../capabilities/publishing.js';
import type { AdapterAccount } from '../types.js';
import type { ShortVideoClient } from './client.js';
import { USER_METRICS, VIDEO_METRICS } from './insights-metrics.js';

interface TikTokVideo {
  id: string;
  create_time?: number;
  [field: string]: unknown;
}

/**
 * The Display API: current totals of the creator (`/v2/user/info/`, scope user.info.stats) and lifetime counts of
 * their videos (`/v2/video/query/`, scope video.list). No history: followers are recorded daily by the service.
 */
export class ShortVideoInsights implements Insights {
  readonly metrics = USER_METRICS;
  readonly postMetrics = VIDEO_METRICS;
  readonly scopes = { account: ['user.info.stats'], post: ['video.list'] };
  readonly days = { timeZone: 'UTC', boundary: 'Days run from midnight to midnight UTC, when the service records the daily snapshot.' };
  readonly apiVersion = 'v2';
  readonly maxDays = 90;
  readonly groupSize = 10;
  readonly lagDays = 0;
  readonly followerHistory = 'snapshots' as const;

  constructor(private readonly client: ShortVideoClient) {}

  async followersNow(account: AdapterAccount): Promise<number | null> {
    const data = await this.client.api<{ user?: { follower_count?: number } }>(
      account.credentials.accessToken,
      'GET',
      '/v2/user/info/?fields=open_id,follower_count',
    );
    return data.user?.follower_count ?? null;
  }

  async post(account: AdapterAccount, platformPostId: string, metrics: readonly string[]): Promise<PostFigures> {
    const data = await this.client.api<{ videos?: TikTokVideo[] }>(
      account.credentials.accessToken,
      'POST',
      `/v2/video/query/?fields=${['id', 'create_time', ...metrics].join(',')}`,
      { filters: { video_ids: [platformPostId] } },
    );
    const video = data.videos?.find((candidate) => candidate.id === platformPostId);
    if (!video) throw new PostNotFound(platformPostId);
    return {
      values: new Map(metrics.map((metric) => [metric, typeof video[metric] === 'number' ? (video[metric] as number) : null])),
      publishedAt: video.create_time ? new Date(video.create_time * 1000) : null,
    };
  }

  /** The video query names an unknown field `invalid_params`; the field list is ours, so this never drops a metric. */
  refusesMetric(_error: PlatformError): boolean {
    return false;
  }
}
