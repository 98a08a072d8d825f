import { socialNetwork } from '../../platforms/social-network/index.js';
import { DEFAULT_VERSION } from '../../platforms/social-network/settings.js';
import { defineSandbox } from '../sandbox-platform.js';
import { SOCIAL_NETWORK_CONTROLS } from './controls.js';
import { SANDBOX_APP } from './demo.js';
import { SOCIAL_NETWORK_COMMERCE_CONTROLS, SOCIAL_NETWORK_LEAD_CONTROLS, SOCIAL_NETWORK_MARKETING_CONTROLS } from './marketing-controls.js';
import { mountSocialNetwork } from './platform.js';

/** The Graph and the login dialog under their own prefixes, at the configured API version (any version is served). */
export const socialNetworkSandbox = defineSandbox({
  platform: socialNetwork,
  controls: {
    ...SOCIAL_NETWORK_CONTROLS,
    ...SOCIAL_NETWORK_MARKETING_CONTROLS,
    ...SOCIAL_NETWORK_LEAD_CONTROLS,
    ...SOCIAL_NETWORK_COMMERCE_CONTROLS,
  },
  mount: mountSocialNetwork,
  defaults: (sandboxUrl) => ({
    appId: SANDBOX_APP.id,
    appSecret: SANDBOX_APP.secret,
    verifyToken: undefined,
    version: DEFAULT_VERSION,
    graphHost: `${sandboxUrl}/social_network/graph`,
    dialogHost: `${sandboxUrl}/social_network/www`,
  }),
});
