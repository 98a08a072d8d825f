import { shortVideoAds } from '../../platforms/short-video-ads/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { SANDBOX_ADS_APP } from './demo.js';
import { mountShortVideoAds } from './platform.js';

export const shortVideoAdsSandbox = defineSandbox({
  platform: shortVideoAds,
  mount: mountShortVideoAds,
  defaults: (sandboxUrl) => ({
    ...SANDBOX_ADS_APP,
    authUrl: `${sandboxUrl}/short_video_ads/portal/auth`,
    apiUrl: `${sandboxUrl}/short_video_ads/open_api/v1.3`,
  }),
});
