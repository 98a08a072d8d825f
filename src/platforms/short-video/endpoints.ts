import type { Config } from '../../lib/config.js';
import { SANDBOX_ADS_APP } from '../../sandbox/short-video-ads/demo.js';
import { SANDBOX_APP } from '../../sandbox/short-video/demo.js';
import type { ShortVideoAdsEndpoints } from '../short-video-ads/adapter.js';
import type { ShortVideoEndpoints } from './adapter.js';

/** The configured app at its (real or configured) hosts, or the sandbox's prefixes with the sandbox's own app. */
export function shortVideoEndpoints(config: Config, sandboxUrl: string | null): ShortVideoEndpoints {
  const app = config.oauthApps.shortVideo;
  if (app) return app;
  const base = `${sandboxUrl ?? 'http://sandbox.invalid'}/short_video`;
  return { ...SANDBOX_APP, authorizeUrl: `${base}/v2/auth/authorize/`, apiUrl: base };
}

export function shortVideoAdsEndpoints(config: Config, sandboxUrl: string | null): ShortVideoAdsEndpoints {
  const app = config.oauthApps.shortVideoAds;
  if (app) return app;
  const base = `${sandboxUrl ?? 'http://sandbox.invalid'}/short_video_ads`;
  return { ...SANDBOX_ADS_APP, authUrl: `${base}/portal/auth`, apiUrl: `${base}/open_api/v1.3` };
}
