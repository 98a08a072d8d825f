/**
 * What every new short_video_ads sandbox has: the sandbox's own developer app (used while
 * SHORT_VIDEO_ADS_APP_ID is unset) and two advertisers the signed-in person may grant.
 */
export const SANDBOX_ADS_APP = { appId: '7000000000000000900', secret: 'sandbox-short-video-ads-app-secret-92ce' };

export const DEMO_ADVERTISERS = [
  {
    advertiser_id: '7000000000000000101',
    name: 'Acme Coffee Ads',
    currency: 'USD',
    timezone: 'Etc/GMT+8',
    display_timezone: 'America/Los_Angeles',
    status: 'STATUS_ENABLE',
    company: 'Acme Coffee Inc.',
    country: 'US',
    role: 'ROLE_ADVERTISER',
  },
  {
    advertiser_id: '7000000000000000102',
    name: 'Acme Coffee EU',
    currency: 'EUR',
    timezone: 'Etc/GMT-1',
    display_timezone: 'Europe/Berlin',
    status: 'STATUS_PENDING_VERIFIED',
    company: 'Acme Coffee GmbH',
    country: 'DE',
    role: 'ROLE_ADVERTISER',
  },
];
