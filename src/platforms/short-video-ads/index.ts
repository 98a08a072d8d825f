import { definePlatform } from '../platform-module.js';
import { ShortVideoAdsAdapter } from './adapter.js';
import { shortVideoAdsSettings } from './settings.js';

export const shortVideoAds = definePlatform({
  ids: ['short_video_ads'],
  settings: shortVideoAdsSettings,
  create: (settings) => [new ShortVideoAdsAdapter(settings)],
});
