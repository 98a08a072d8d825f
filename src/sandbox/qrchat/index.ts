import { qrchat } from '../../platforms/qrchat/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { SandboxQrchatDriver } from './driver.js';
import { attachQrNetwork, detachQrNetwork } from './network.js';
import { mountQrchat } from './platform.js';

/** The sessions' driver reaches the fake chat app servers of this process by the sandbox's URL. */
export const qrchatSandbox = defineSandbox({
  platform: qrchat,
  mount: (router, sandboxUrl) => {
    attachQrNetwork(sandboxUrl, mountQrchat(router));
    return { close: () => detachQrNetwork(sandboxUrl) };
  },
  defaults: (sandboxUrl) => ({ driver: new SandboxQrchatDriver(sandboxUrl) }),
});
