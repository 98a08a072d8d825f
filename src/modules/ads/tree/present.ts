import type { components } from '../../../../generated/api.js';
import type { AdObjectOf, AdLevel, AdTreeObject } from '../../../platforms/capabilities/ad-campaigns.js';
import type { AdAccountRow } from '../../accounts/models.js';

type Schemas = components['schemas'];
/** The contract's object of each level. */
export type PresentedOf<L extends AdLevel> = L extends 'campaign'
  ? Schemas['AdCampaign']
  : L extends 'adset'
    ? Schemas['AdSet']
    : Schemas['Ad'];

/** A tree object as the contract shows it: named with its ad account and platform, `status_name` in the specification's spelling. */
export function presentAdObject<L extends AdLevel>(object: AdObjectOf<L>, row: AdAccountRow): PresentedOf<L> {
  const { statusName, ...rest } = object as AdTreeObject;
  const presented: Schemas['AdObject'] = { ...rest, adAccountId: row.id, platform: row.platform, status_name: statusName };
  return presented as PresentedOf<L>;
}
