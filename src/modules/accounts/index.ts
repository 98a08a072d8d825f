import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { permissionRevoked } from './incoming.js';
import { REFRESH_JOB, refreshExpiringTokens } from './refresh.js';

export const accounts = defineArea({
  name: 'accounts',
  contractArea: 'Accounts',
  handlers,
  jobs: (services) => ({
    [REFRESH_JOB]: async () => {
      await refreshExpiringTokens(services);
    },
  }),
  schedules: { [REFRESH_JOB]: '1 minute' },
  incoming: { permission_revoked: permissionRevoked },
});
