import { botchat } from '../../platforms/botchat/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { BOTCHAT_CONTROLS } from './controls.js';
import { mountBotchat } from './platform.js';

export const botchatSandbox = defineSandbox({
  platform: botchat,
  controls: BOTCHAT_CONTROLS,
  mount: mountBotchat,
  defaults: (sandboxUrl) => ({ apiUrl: `${sandboxUrl}/botchat` }),
});
