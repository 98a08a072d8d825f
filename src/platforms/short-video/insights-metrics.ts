import type { MetricMap } from '../capabilities/insights.js';

/**
 * The Display API has no account history at all: `/v2/user/info/` gives current totals (follower_count,
 * likes_count, video_count; scope user.info.stats), recorded daily by the service for the followers history.
 */
export const USER_METRICS: MetricMap = {
  followers: {
    unsupported: 'The short-video network gives follower_count as a current total only; see the followers history (daily snapshots).',
  },
  views: { unsupported: 'The short-video network gives no account views over time; post-insights gives each video’s views.' },
  reach: { unsupported: 'The short-video network gives no reach.' },
  likes: { unsupported: 'The short-video network gives likes as a lifetime total only; post-insights gives each video’s likes.' },
  engagement: { unsupported: 'The short-video network gives no account engagement over time; post-insights gives it per video.' },
};

/** `/v2/video/query/` fields (scope video.list), lifetime. */
export const VIDEO_METRICS: MetricMap = {
  views: { platformMetrics: ['view_count'], kind: 'flow', windows: [] },
  likes: { platformMetrics: ['like_count'], kind: 'flow', windows: [] },
  comments: { platformMetrics: ['comment_count'], kind: 'flow', windows: [] },
  shares: { platformMetrics: ['share_count'], kind: 'flow', windows: [] },
  engagement: { platformMetrics: ['like_count', 'comment_count', 'share_count'], kind: 'flow', windows: [] },
  reach: { unsupported: 'The short-video network gives no reach for videos.' },
};
