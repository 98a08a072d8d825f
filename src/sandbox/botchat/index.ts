import { botchat } from '../../platforms/botchat/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { mountBotchat } from './platform.js';

export const botchatSandbox = defineSandbox({
  platform: botchat,
  mount: mountBotchat,
  defaults: (sandboxUrl) => ({ apiUrl: `${sandboxUrl}/botchat` }),
});
