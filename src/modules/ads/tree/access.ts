import { idOf } from '../../../lib/ids.js';
import type { AdCampaigns, AdsAccount } from '../../../platforms/capabilities/ad-campaigns.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import type { AdAccountRow } from '../../accounts/models.js';
import { withConnectedAccount } from '../../accounts/platform-call.js';
import { throwAdRefusal } from '../refusals.js';

/**
 * Acts on the campaign tree of one of the caller's connected ad accounts: its platform's `adCampaigns` with the
 * account's token and currency. The platform's refusals become our 422s naming the member (in the body or, for a
 * read or a delete, the query); the rest is the accounts' mapping (404, 403, 409, 429, 502).
 */
export function withAdCampaigns<T>(
  services: Services,
  principal: Principal,
  adAccountId: string,
  call: (campaigns: AdCampaigns, account: AdsAccount, row: AdAccountRow) => Promise<T>,
  where: 'body' | 'query' = 'body',
): Promise<T> {
  return withConnectedAccount(
    services,
    principal,
    { adAccountId: idOf('adacc', adAccountId) },
    'adCampaigns',
    (adapter, account, row) => call(adapter.adCampaigns, { ...account, currency: row.currency }, row),
    { handle: (error) => throwAdRefusal(error, where) },
  );
}
