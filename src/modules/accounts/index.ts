import { defineArea, oneAtATime } from '../area.js';
import * as handlers from './handlers.js';
import { permissionRevoked } from './incoming.js';
import { checkPlatformSides, PLATFORM_CHECK_JOB } from './platform-check.js';
import { REFRESH_JOB, refreshExpiringTokens } from './refresh.js';

export const accounts = defineArea({
  name: 'accounts',
  contractArea: 'Accounts',
  handlers,
  tables: ['profiles', 'accounts', 'ad_accounts'],
  jobs: (services) => ({
    [REFRESH_JOB]: async () => {
      await refreshExpiringTokens(services);
    },
    [PLATFORM_CHECK_JOB]: async () => {
      await checkPlatformSides(services);
    },
  }),
  schedules: { [REFRESH_JOB]: '1 minute', [PLATFORM_CHECK_JOB]: '15 minutes' },
  incoming: { permission_revoked: oneAtATime((_services, platform, event, trx) => permissionRevoked(trx, platform, event)) },
});
