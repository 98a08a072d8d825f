import { shortVideoAds } from '../../platforms/short-video-ads/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { SHORT_VIDEO_ADS_CONTROLS } from './controls.js';
import { SANDBOX_ADS_APP } from './demo.js';
import { mountShortVideoAds } from './platform.js';

export const shortVideoAdsSandbox = defineSandbox({
  platform: shortVideoAds,
  controls: SHORT_VIDEO_ADS_CONTROLS,
  mount: mountShortVideoAds,
  defaults: (sandboxUrl) => ({
    ...SANDBOX_ADS_APP,
    authUrl: `${sandboxUrl}/short_video_ads/portal/auth`,
    apiUrl: `${sandboxUrl}/short_video_ads/open_api/v1.3`,
  }),
});
