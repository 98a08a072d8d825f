import type { components } from '../../../../generated/api.js';
import { idOf } from '../../../lib/ids.js';
import {
  type AdCampaigns,
  type AdLevel,
  type AdObjectOf,
  AdRefused,
  type AdsAccount,
  type AdTreeObject,
} from '../../../platforms/capabilities/ad-campaigns.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import type { AdAccountRow } from '../../accounts/models.js';
import { withConnectedAccount } from '../../accounts/platform-call.js';
import { CopyRefusedError } from './errors.js';

/**
 * Acts on the campaign tree of one of the caller's connected ad accounts: its platform's `adCampaigns` with the
 * account's token and currency. A refusal that escapes is a 422 naming our member; the rest is the accounts'
 * mapping (404, 403, 409, 429, 502).
 */
export function withAdCampaigns<T>(
  services: Services,
  principal: Principal,
  adAccountId: string,
  call: (campaigns: AdCampaigns, account: AdsAccount, row: AdAccountRow) => Promise<T>,
): Promise<T> {
  return withConnectedAccount(
    services,
    principal,
    { adAccountId: idOf('adacc', adAccountId) },
    'adCampaigns',
    (adapter, account, row) => call(adapter.adCampaigns, { ...account, currency: row.currency }, row),
    {
      handle: (error) => {
        if (error instanceof AdRefused) throw new CopyRefusedError(error.message, error.field);
      },
    },
  );
}

/** A tree object as the contract shows it: named with its ad account and platform, `status_name` in the specification's spelling. */
export function presented<L extends AdLevel>(object: AdObjectOf<L>, row: AdAccountRow): PresentedOf<L> {
  const { statusName, ...rest } = object as AdTreeObject;
  const shown: Schemas['AdObject'] = { ...rest, adAccountId: row.id, platform: row.platform, status_name: statusName };
  return shown as PresentedOf<L>;
}

type Schemas = components['schemas'];
/** The contract's object of each level. */
type PresentedOf<L extends AdLevel> = L extends 'campaign' ? Schemas['AdCampaign'] : L extends 'adset' ? Schemas['AdSet'] : Schemas['Ad'];
