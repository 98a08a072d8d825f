import { shortVideo } from '../../platforms/short-video/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { SHORT_VIDEO_CONTROLS } from './controls.js';
import { SANDBOX_APP } from './demo.js';
import { mountShortVideo } from './platform.js';

export const shortVideoSandbox = defineSandbox({
  platform: shortVideo,
  controls: SHORT_VIDEO_CONTROLS,
  mount: mountShortVideo,
  defaults: (sandboxUrl) => ({
    ...SANDBOX_APP,
    authorizeUrl: `${sandboxUrl}/short_video/v2/auth/authorize/`,
    apiUrl: `${sandboxUrl}/short_video`,
  }),
});
