import { definePlatform } from '../platform-module.js';
import { SocialThreadsAdapter } from './adapter.js';
import { socialThreadsSettings } from './settings.js';

export const socialThreads = definePlatform({
  ids: ['social_threads'],
  settings: socialThreadsSettings,
  create: (settings) => [new SocialThreadsAdapter(settings)],
});
