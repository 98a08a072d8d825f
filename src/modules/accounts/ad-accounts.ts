import type { Knex } from 'knex';
import type { components } from '../../../generated/api.js';
import { newId } from '../../lib/ids.js';
import type { Page, PageRequest } from '../../lib/pagination.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { type ConnectionFilters, listed } from './accounts.js';
import { AccountAlreadyConnectedError } from './errors.js';
import { connectedFields, type Grant, writeConnection } from './connected.js';
import { AdAccountRow } from './models.js';
import { presentAdAccount } from './present.js';
import { findProfile } from './profiles.js';

type AdAccount = components['schemas']['AdAccount'];

export async function listAdAccounts(
  db: Knex,
  principal: Principal,
  page: PageRequest,
  filters: ConnectionFilters,
): Promise<Page<AdAccount>> {
  return listed(AdAccountRow.query(db), db, principal, page, filters, presentAdAccount);
}

/** An ad account a grant can connect; the grant's `scopes` are what the seam checks an ads call against. */
export interface GrantedAdAccount extends Grant {
  platformAdAccountId: string;
  name: string;
  currency: string;
  timezone: string;
  platformStatus: AdAccount['platformStatus'];
}

/**
 * Creates the ad account, or reconnects the same one of the same profile (same id, new tokens, the last error
 * cleared); in another profile it is a 409. Emits `account.connected` with
 * `accountType: ad_account`. Runs inside `outer` when given.
 */
export async function saveConnectedAdAccount(
  services: Services,
  principal: Principal,
  profileId: string,
  platform: AdAccountRow['platform'],
  granted: GrantedAdAccount,
  outer?: Knex.Transaction,
): Promise<AdAccountRow> {
  return (outer ?? services.db).transaction(async (trx) => {
    await findProfile(trx, principal, profileId);
    const existing = await AdAccountRow.query(trx)
      .forUpdate()
      .findOne({ ownerId: principal.ownerId, platform, platformAdAccountId: granted.platformAdAccountId });
    if (existing && existing.profileId !== profileId && existing.status !== 'disconnected') {
      throw new AccountAlreadyConnectedError(
        `This ad account is connected to another profile (${existing.profileId}); disconnect it there first.`,
      );
    }
    const fields = {
      profileId,
      name: granted.name,
      currency: granted.currency,
      timezone: granted.timezone,
      platformStatus: granted.platformStatus,
      ...connectedFields(services.secrets, granted),
    };
    return writeConnection(trx, services, principal.ownerId, existing, async (found) =>
      found
        ? (await AdAccountRow.query(trx).patch(fields).where({ id: found.id }).returning('*'))[0]!
        : AdAccountRow.query(trx).insertAndFetch({
            id: newId('adacc'),
            ownerId: principal.ownerId,
            platform,
            platformAdAccountId: granted.platformAdAccountId,
            ...fields,
          }),
    );
  });
}
