import { shortVideo } from '../../platforms/short-video/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { SANDBOX_APP } from './demo.js';
import { mountShortVideo } from './platform.js';

export const shortVideoSandbox = defineSandbox({
  platform: shortVideo,
  mount: mountShortVideo,
  defaults: (sandboxUrl) => ({
    ...SANDBOX_APP,
    authorizeUrl: `${sandboxUrl}/short_video/v2/auth/authorize/`,
    apiUrl: `${sandboxUrl}/short_video`,
  }),
});
