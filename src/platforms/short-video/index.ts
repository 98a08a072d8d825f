import { definePlatform } from '../platform-module.js';
import { ShortVideoAdapter } from './adapter.js';
import { shortVideoSettings } from './settings.js';

export const shortVideo = definePlatform({
  ids: ['short_video'],
  settings: shortVideoSettings,
  // A video's bytes are uploaded from storage: the adapter opens one media file, nothing more.
  create: (settings, deps) => [new ShortVideoAdapter(settings, deps.openMedia)],
});
