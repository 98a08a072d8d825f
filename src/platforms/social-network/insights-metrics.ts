import type { MetricMap } from '../capabilities/insights.js';

const ALL = ['day', 'week', 'days_28'] as const;

/**
 * Page insights on Graph v26 (2026). Meta removed `page_impressions*` (replaced by views) and `page_fans*`
 * (replaced by follows) on 2025-11-15 for every API version, and post impressions and views on 2026-06-16; a
 * removed name makes the whole call fail with `(#100) The value must be a valid insights metric`.
 * https://developers.facebook.com/documentation/pages-api/platforminsights/page/deprecated-metrics
 */
export const PAGE_METRICS: MetricMap = {
  followers: { platformMetrics: ['page_follows'], kind: 'level', windows: ['day'] },
  followers_gained: { platformMetrics: ['page_daily_follows_unique'], kind: 'flow', windows: ['day'] },
  followers_lost: { platformMetrics: ['page_daily_unfollows_unique'], kind: 'flow', windows: ['day'] },
  impressions: {
    unsupported:
      'The social network removed page impressions on 2025-11-15 (every Graph version); `views` (page_media_view) replaces them.',
    replacedBy: 'views',
  },
  reach: { platformMetrics: ['page_total_media_view_unique'], kind: 'unique', windows: ALL },
  views: { platformMetrics: ['page_media_view'], kind: 'flow', windows: ALL, versions: { since: 'v21.0' } },
  engagement: { platformMetrics: ['page_post_engagements'], kind: 'flow', windows: ALL },
  likes: { platformMetrics: ['page_actions_post_reactions_total'], kind: 'flow', windows: ALL },
  comments: { unsupported: 'Page insights count no comments at page level; post-insights gives them per post.' },
  shares: { unsupported: 'Page insights count no shares at page level; post-insights gives them per post.' },
  clicks: { platformMetrics: ['page_total_actions'], kind: 'flow', windows: ALL },
  profile_views: { platformMetrics: ['page_views_total'], kind: 'flow', windows: ALL },
};

/**
 * Lifetime metrics of a page post: post impressions and views were removed on 2026-06-16. Comments and shares are
 * no insights metrics: they are the post's own counts (`POST_FIELDS`).
 */
export const POST_METRICS: MetricMap = {
  impressions: {
    unsupported: 'The social network removed post impressions on 2026-06-16; `reach` (post_total_media_view_unique) remains.',
  },
  views: { unsupported: 'The social network removed post views on 2026-06-16; `reach` (post_total_media_view_unique) remains.' },
  reach: { platformMetrics: ['post_total_media_view_unique'], kind: 'unique', windows: [] },
  likes: { platformMetrics: ['post_reactions_by_type_total'], kind: 'flow', windows: [] },
  clicks: { platformMetrics: ['post_clicks'], kind: 'flow', windows: [] },
  comments: { platformMetrics: ['comments'], kind: 'flow', windows: [] },
  shares: { platformMetrics: ['shares'], kind: 'flow', windows: [] },
  engagement: { platformMetrics: ['post_clicks', 'post_reactions_by_type_total'], kind: 'flow', windows: [] },
};

/** Post counts read from the post itself (`GET /{post-id}?fields=…`), each with the field that asks for it and how to read it. */
export const POST_FIELDS: Record<string, { field: string; read: (post: PostCounts) => number }> = {
  comments: { field: 'comments.summary(total_count).limit(0)', read: (post) => post.comments?.summary?.total_count ?? 0 },
  // The Graph leaves `shares` out of a post nobody shared.
  shares: { field: 'shares', read: (post) => post.shares?.count ?? 0 },
};

export interface PostCounts {
  comments?: { summary?: { total_count?: number } };
  shares?: { count?: number };
}
