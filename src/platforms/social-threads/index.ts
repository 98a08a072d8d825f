import { definePlatform } from '../platform-module.js';
import { SocialThreadsAdapter } from './adapter.js';
import { SocialThreadsInsights } from './insights.js';
import { socialThreadsSettings } from './settings.js';

export const socialThreads = definePlatform({
  ids: ['social_threads'],
  settings: socialThreadsSettings,
  create: (settings) => [
    Object.assign(new SocialThreadsAdapter(settings), { insights: new SocialThreadsInsights(settings.apiUrl, settings.version) }),
  ],
});
