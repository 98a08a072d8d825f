import { socialThreads } from '../../platforms/social-threads/index.js';
import { DEFAULT_VERSION } from '../../platforms/social-threads/settings.js';
import { defineSandbox } from '../sandbox-platform.js';
import { SOCIAL_THREADS_CONTROLS } from './controls.js';
import { SANDBOX_THREADS_APP } from './demo.js';
import { mountSocialThreads } from './platform.js';

export const socialThreadsSandbox = defineSandbox({
  platform: socialThreads,
  controls: SOCIAL_THREADS_CONTROLS,
  mount: mountSocialThreads,
  defaults: (sandboxUrl) => ({
    appId: SANDBOX_THREADS_APP.id,
    appSecret: SANDBOX_THREADS_APP.secret,
    verifyToken: undefined,
    version: DEFAULT_VERSION,
    apiUrl: `${sandboxUrl}/social_threads/graph`,
    authorizeUrl: `${sandboxUrl}/social_threads/www/oauth/authorize`,
  }),
});
