import type { components } from '../../../../generated/api.js';
import { AdAccountDisabled, type AdCampaigns, AdRefused, type AdsAccount } from '../../../platforms/capabilities/ad-campaigns.js';
import { PlatformError } from '../../../platforms/errors.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import type { AdAccountRow } from '../../accounts/models.js';
import { withAdAccount } from '../access.js';
import { adRefusals } from '../refusals.js';
import { presentAdObject } from '../tree/present.js';

type Schemas = components['schemas'];
type Outcome = Schemas['AdObjectStatusOutcome'];
type Target = Schemas['AdObjectsStatusUpdate']['objects'][number];

/**
 * Pauses or resumes each object asked for, one after the other, each with its own outcome: a refusal (a deleted
 * object), an object the account lacks, or a failure of the platform for that object alone fails only that one.
 * A failure of the account itself (its token refused, the platform throttling it) ends the call as a whole: it
 * would fail every object after it the same way.
 */
export async function setStatuses(
  services: Services,
  principal: Principal,
  body: Schemas['AdObjectsStatusUpdate'],
): Promise<Schemas['AdObjectsStatusResult']> {
  return withAdAccount('adCampaigns', services, principal, body.adAccountId, { handle: adRefusals() }, async (campaigns, account, row) => {
    const results: Outcome[] = [];
    for (const target of body.objects) results.push(await outcomeOf(campaigns, account, row, target, body.status));
    return { results };
  });
}

async function outcomeOf(
  campaigns: AdCampaigns,
  account: AdsAccount,
  row: AdAccountRow,
  { objectId, level }: Target,
  status: 'ACTIVE' | 'PAUSED',
): Promise<Outcome> {
  const failed = (code: 'not_found' | 'ad_platform_rejected' | 'platform_error', detail: string): Outcome => ({
    objectId,
    level,
    outcome: 'failed',
    object: null,
    error: { code, detail },
  });
  try {
    const object = await campaigns.update(account, level, objectId, { status });
    if (!object) return failed('not_found', `The ad account has no ${level === 'adset' ? 'ad set' : level} ${objectId}.`);
    return { objectId, level, outcome: 'succeeded', object: presentAdObject(object, row), error: null };
  } catch (error) {
    if (error instanceof AdRefused) return failed('ad_platform_rejected', error.message);
    if (error instanceof AdAccountDisabled) throw error;
    if (error instanceof PlatformError && (error.kind === 'transient' || error.kind === 'invalid_request'))
      return failed('platform_error', error.message);
    throw error;
  }
}
