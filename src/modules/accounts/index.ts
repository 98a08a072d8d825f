import { defineArea, oneAtATime } from '../area.js';
import * as handlers from './handlers.js';
import { permissionRevoked } from './incoming.js';
import { checkPlatformSides, PLATFORM_CHECK_JOB } from './platform-check.js';
import { REFRESH_JOB, refreshExpiringTokens } from './refresh.js';
import { RevocationWork } from './revocations.js';

export const accounts = defineArea({
  name: 'accounts',
  contractArea: 'Accounts',
  handlers,
  tables: ['profiles', 'accounts', 'ad_accounts', 'account_revocations'],
  jobs: (services) => ({
    [REFRESH_JOB]: async () => {
      await refreshExpiringTokens(services);
    },
    [PLATFORM_CHECK_JOB]: async () => {
      await checkPlatformSides(services);
    },
  }),
  schedules: { [REFRESH_JOB]: '1 minute', [PLATFORM_CHECK_JOB]: '15 minutes' },
  // What a deleted profile's connections owe their platforms, done after the deletion's commit.
  workers: { 'account-revocations': (services) => new RevocationWork(services) },
  outstanding: {
    accountRevocations: 'SELECT count(*) FROM account_revocations WHERE due_at <= now() OR locked_until > now()',
  },
  incoming: { permission_revoked: oneAtATime((_services, platform, event, trx) => permissionRevoked(trx, platform, event)) },
});
