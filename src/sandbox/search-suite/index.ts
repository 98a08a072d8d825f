import { searchSuite } from '../../platforms/search-suite/index.js';
import { defineSandbox } from '../sandbox-platform.js';
import { SEARCH_SUITE_CONTROLS } from './controls.js';
import { mountSearchSuite, SANDBOX_CLIENT } from './platform.js';

export const searchSuiteSandbox = defineSandbox({
  platform: searchSuite,
  controls: SEARCH_SUITE_CONTROLS,
  mount: mountSearchSuite,
  defaults: (sandboxUrl) => {
    const base = `${sandboxUrl}/search_suite`;
    return {
      clientId: SANDBOX_CLIENT.id,
      clientSecret: SANDBOX_CLIENT.secret,
      authorizeUrl: `${base}/o/oauth2/v2/auth`,
      tokenUrl: `${base}/token`,
      revokeUrl: `${base}/revoke`,
      accountsApiUrl: `${base}/accounts`,
      businessInfoApiUrl: `${base}/businessinfo`,
      calendarApiUrl: `${base}/calendar/v3`,
      localPostsApiUrl: `${base}/v4`,
      performanceApiUrl: `${base}/performance`,
    };
  },
});
