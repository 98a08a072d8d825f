import type { components } from '../../../generated/api.js';
import type { AccountId } from '../../lib/ids.js';
import type { Services } from '../../services.js';
import type { Principal } from '../auth/principal.js';
import { withConnectedAccount } from './platform-call.js';

type About = components['schemas']['AccountAbout'];

/** The account's live public profile; a refusal by the platform is recorded on the account as well. */
export async function aboutAccount(services: Services, principal: Principal, accountId: AccountId): Promise<About> {
  return withConnectedAccount(services, principal, { accountId }, 'about', async (adapter, account, row) => ({
    accountId: row.id,
    platform: row.platform as About['platform'],
    ...(await adapter.about(account)),
    fetchedAt: new Date().toISOString(),
  }));
}
