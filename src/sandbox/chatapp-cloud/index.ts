import { chatappCloud } from '../../platforms/chatapp-cloud/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { CHATAPP_CLOUD_CONTROLS } from './controls.js';
import { SANDBOX_APP_SECRET, SANDBOX_VERIFY_TOKEN } from './demo.js';
import { mountChatappCloud } from './platform.js';

/** The sandbox's app stands in only while the sandbox serves the platform: a real Graph URL needs real values. */
export const chatappCloudSandbox = defineSandbox({
  platform: chatappCloud,
  controls: CHATAPP_CLOUD_CONTROLS,
  mount: mountChatappCloud,
  defaults: (sandboxUrl) => ({
    apiUrl: `${sandboxUrl}/chatapp-cloud/v25.0`,
    appSecret: SANDBOX_APP_SECRET,
    verifyToken: SANDBOX_VERIFY_TOKEN,
  }),
});
