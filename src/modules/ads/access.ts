import { idOf } from '../../lib/ids.js';
import type { AdsAccount } from '../../platforms/capabilities/ad-campaigns.js';
import type { Services } from '../../services.js';
import type { AdAccountRow } from '../accounts/models.js';
import { type AccountCallOptions, type CapableAdapter, type Capability, withConnectedAccount } from '../accounts/platform-call.js';
import type { Principal } from '../auth/principal.js';

/**
 * Acts on one of the caller's connected ad accounts through its platform's `capability` (`adCampaigns`,
 * `adPixels`, …), given the account's token and currency: `withConnectedAccount` on an `adacc_` id. The
 * options' `handle` is the part's mapping of the platform's refusals (./refusals.ts `adRefusals` for most); the
 * rest is the accounts' mapping (404, 403, 409, 422, 429, 502).
 */
export function withAdAccount<C extends Capability, T>(
  capability: C,
  services: Services,
  principal: Principal,
  adAccountId: string,
  options: Omit<AccountCallOptions<C, never>, 'part'>,
  call: (member: CapableAdapter<C>[C], account: AdsAccount, row: AdAccountRow) => Promise<T>,
): Promise<T> {
  return withConnectedAccount(
    services,
    principal,
    { adAccountId: idOf('adacc', adAccountId) },
    capability,
    (adapter, account, row) => call(adapter[capability], { ...account, currency: row.currency }, row),
    options,
  );
}
