import type { MetricMap } from '../capabilities/insights.js';

/**
 * Business Profile Performance API `fetchMultiDailyMetricsTimeSeries`: daily values only, dated by the
 * location's own day; impressions are split by surface (search/maps, desktop/mobile) and added up here.
 */
export const LOCATION_METRICS: MetricMap = {
  impressions: {
    platformMetrics: [
      'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
      'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
      'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
      'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
    ],
    kind: 'flow',
    windows: ['day'],
  },
  views: {
    platformMetrics: [
      'BUSINESS_IMPRESSIONS_DESKTOP_MAPS',
      'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH',
      'BUSINESS_IMPRESSIONS_MOBILE_MAPS',
      'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
    ],
    kind: 'flow',
    windows: ['day'],
  },
  website_clicks: { platformMetrics: ['WEBSITE_CLICKS'], kind: 'flow', windows: ['day'] },
  call_clicks: { platformMetrics: ['CALL_CLICKS'], kind: 'flow', windows: ['day'] },
  direction_requests: { platformMetrics: ['BUSINESS_DIRECTION_REQUESTS'], kind: 'flow', windows: ['day'] },
  engagement: { platformMetrics: ['WEBSITE_CLICKS', 'CALL_CLICKS', 'BUSINESS_DIRECTION_REQUESTS'], kind: 'flow', windows: ['day'] },
  reach: { unsupported: 'Business profiles report impressions, not distinct viewers.' },
  followers: { unsupported: 'Business profiles have no followers.' },
};

export const LOCAL_POST_METRICS: MetricMap = {};
