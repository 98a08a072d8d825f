import type { MetricMap } from '../capabilities/insights.js';

/**
 * `threads_insights` (v1.0): `views` comes day by day; likes, replies, reposts, quotes, clicks and
 * `followers_count` only as one total over `since`..`until`, so a day's value is read as that day's total.
 * The API gives no week or 28-day windows: the service adds days up by kind.
 */
export const USER_METRICS: MetricMap = {
  followers: {
    unsupported: 'The threads network gives followers_count as a current total only; see the followers history (daily snapshots).',
  },
  views: { platformMetrics: ['views'], kind: 'flow', windows: ['day'] },
  likes: { platformMetrics: ['likes'], kind: 'flow', windows: ['day'] },
  replies: { platformMetrics: ['replies'], kind: 'flow', windows: ['day'] },
  reposts: { platformMetrics: ['reposts'], kind: 'flow', windows: ['day'] },
  quotes: { platformMetrics: ['quotes'], kind: 'flow', windows: ['day'] },
  clicks: { platformMetrics: ['clicks'], kind: 'flow', windows: ['day'] },
  engagement: { platformMetrics: ['likes', 'replies', 'reposts', 'quotes'], kind: 'flow', windows: ['day'] },
  reach: { unsupported: 'The threads network gives no reach (distinct viewers), only views.' },
  impressions: { unsupported: 'The threads network counts views only; use `views`.', replacedBy: 'views' },
};

export const MEDIA_METRICS: MetricMap = {
  views: { platformMetrics: ['views'], kind: 'flow', windows: [] },
  likes: { platformMetrics: ['likes'], kind: 'flow', windows: [] },
  replies: { platformMetrics: ['replies'], kind: 'flow', windows: [] },
  reposts: { platformMetrics: ['reposts'], kind: 'flow', windows: [] },
  quotes: { platformMetrics: ['quotes'], kind: 'flow', windows: [] },
  shares: { platformMetrics: ['shares'], kind: 'flow', windows: [] },
  engagement: { platformMetrics: ['likes', 'replies', 'reposts', 'quotes', 'shares'], kind: 'flow', windows: [] },
  reach: { unsupported: 'The threads network gives no reach for posts, only views.' },
};
