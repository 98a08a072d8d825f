import type { components } from '../../../../generated/api.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import { AdObjectNotFoundError, BoostNotRunningError } from '../errors.js';
import { withAdAccount } from '../access.js';
import { adRefusals } from '../refusals.js';
import { type AdBoost, type BoostStatus, findBoost, platformOf, presentedBoost, stepsOf } from './records.js';

type Wanted = components['schemas']['AdBoostStatusChange']['status'];

const BECOMES: Record<Wanted, BoostStatus> = { ACTIVE: 'active', PAUSED: 'paused', STOPPED: 'stopped' };
/** Platforms without an archive: a boost stopped for good has its campaign deleted (its figures stay in the reports). */
const STOPS_BY_DELETING = new Set(['short_video_ads']);

/**
 * `POST /ads/boosts/{boostId}/status`: the boost's campaign paused, run again, or archived (stopped for good) on
 * the platform (deleted, where the platform has no archive), then the boost recorded so. Only a boost whose four
 * steps are made (active or paused) can be.
 */
export async function changeBoostStatus(services: Services, principal: Principal, id: string, wanted: Wanted): Promise<AdBoost> {
  const { db } = services;
  const boost = await findBoost(db, principal, id);
  const status = BECOMES[wanted];
  if (boost.status === status) return presentedBoost(db, boost);
  if (boost.status !== 'active' && boost.status !== 'paused') throw new BoostNotRunningError(boost.status);
  const campaignId = (await stepsOf(db, boost.id)).find((step) => step.step === 'campaign')!.platformId!;
  await withAdAccount('adCampaigns', services, principal, boost.adAccountId, { handle: adRefusals() }, async (campaigns, account) => {
    const changed =
      wanted === 'STOPPED' && STOPS_BY_DELETING.has(platformOf(boost))
        ? await campaigns.delete(account, 'campaign', campaignId)
        : await campaigns.update(account, 'campaign', campaignId, { status: wanted === 'STOPPED' ? 'ARCHIVED' : wanted });
    if (!changed) throw new AdObjectNotFoundError('campaign');
  });
  const [updated] = await db('adBoosts').where({ id: boost.id }).update({ status, updatedAt: db.fn.now() }).returning('*');
  return presentedBoost(db, updated);
}
