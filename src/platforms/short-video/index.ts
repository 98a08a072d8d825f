import { definePlatform } from '../platform-module.js';
import { ShortVideoAdapter } from './adapter.js';
import { ShortVideoClient } from './client.js';
import { ShortVideoInsights } from './insights.js';
import { shortVideoSettings } from './settings.js';

export const shortVideo = definePlatform({
  ids: ['short_video'],
  settings: shortVideoSettings,
  // A video's bytes are uploaded from storage: the adapter opens one media file, nothing more.
  create: (settings, deps) => [
    Object.assign(new ShortVideoAdapter(settings, deps.openMedia), {
      insights: new ShortVideoInsights(new ShortVideoClient(settings.apiUrl, settings)),
    }),
  ],
});
