import { defineArea } from '../area.js';
import * as handlers from './handlers.js';

export const auth = defineArea({
  name: 'auth',
  contractArea: 'Auth',
  handlers,
  // Kept a week past their expiry, so a client using one just after it expired is told so (token_expired).
  purge: async ({ db }) => ({ sessions: await db('sessions').where('expiresAt', '<', db.raw("now() - interval '7 days'")).delete() }),
});
