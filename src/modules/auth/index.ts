import { defineArea } from '../area.js';
import * as handlers from './handlers.js';
import { purgeEndedWindows } from './shared-window.js';

export const auth = defineArea({
  name: 'auth',
  contractArea: 'Auth',
  handlers,
  tables: ['owners', 'sessions', 'rate_limits'],
  purge: async ({ db }) => ({
    // Kept a week past their expiry, so a client using one just after it expired is told so (token_expired).
    sessions: await db('sessions').where('expiresAt', '<', db.raw("now() - interval '7 days'")).delete(),
    rateLimits: await purgeEndedWindows(db),
  }),
});
