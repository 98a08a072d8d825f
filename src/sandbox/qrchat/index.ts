import { qrchat } from '../../platforms/qrchat/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { QRCHAT_CONTROLS } from './controls.js';
import { SandboxQrchatDriver } from './driver.js';
import { attachQrNetwork, detachQrNetwork, type QrNetworkSnapshot } from './network.js';
import { mountQrchat } from './platform.js';

/** The sessions' driver reaches the fake chat app servers of this process by the sandbox's URL. */
export const qrchatSandbox = defineSandbox({
  platform: qrchat,
  controls: QRCHAT_CONTROLS,
  mount: (router, sandboxUrl, stored) => {
    const network = mountQrchat(router, stored.restored as QrNetworkSnapshot | undefined);
    attachQrNetwork(sandboxUrl, network);
    return { close: () => detachQrNetwork(sandboxUrl), state: () => network.snapshot() };
  },
  defaults: (sandboxUrl) => ({ driver: new SandboxQrchatDriver(sandboxUrl) }),
});
