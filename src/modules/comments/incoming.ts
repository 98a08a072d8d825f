import type { Knex } from 'knex';
import type { IncomingComment } from '../../platforms/capabilities/webhooks.js';
import type { Services } from '../../services.js';
import { accountsAddressedBy } from '../accounts/incoming.js';
import { applyCommentChange } from './store.js';

/** A change to a comment, applied for every connected account it is addressed to. */
export async function receiveComment(_services: Services, platform: string, event: IncomingComment, trx: Knex.Transaction): Promise<void> {
  for (const account of await accountsAddressedBy(trx, platform, event)) await applyCommentChange(trx, account, event);
}
