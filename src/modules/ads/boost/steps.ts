import type { AdInputOf, AdLevel } from '../../../platforms/capabilities/ad-campaigns.js';
import type { Services } from '../../../services.js';
import { withAdAccount } from '../access.js';
import { ownerItself } from '../../auth/principal.js';
import { createOnce, rejected } from '../creatives/create.js';
import { adRefusals } from '../refusals.js';
import { createAdObject } from '../tree/create.js';
import type { BoostRow, StepName, StepRow } from './records.js';

/** The ids of the steps made so far, by step. */
type Made = Partial<Record<StepName, string>>;

function madeOf(steps: StepRow[]): Made {
  return Object.fromEntries(steps.filter((step) => step.state === 'done').map((step) => [step.step, step.platformId!]));
}

/** What the tree is asked to create for a step of the campaign tree, its parents' ids filled in. */
function treeInput(boost: BoostRow, step: Exclude<StepName, 'creative'>, made: Made): AdInputOf<AdLevel> {
  const { plan } = boost;
  if (step === 'campaign') return plan.campaign;
  if (step === 'adset') return { ...plan.adset, campaignId: made.campaign! };
  const spark = 'sparkPost' in plan.creative ? { sparkPost: plan.creative.sparkPost } : {};
  return { ...plan.ad, adsetId: made.adset!, creativeId: made.creative!, ...spark };
}

/**
 * Makes one step of a boost on the platform, at most once whatever the crashes: each is a write of the ledger under
 * the boost's own key (`boost:<id>:<step>`), so a step resumed after a lost answer or a restart is looked up on the
 * platform (the tree's `findCreated`, the creatives' `findCreative`), never made again. The campaign, ad set and
 * ad are the campaign tree's creations; the creative the creatives part's, except a Spark post's: TikTok makes no
 * creative (the ad names the post), so the step makes nothing and records the post's item id. Answers the made
 * object's id; the platform's refusal is the problem the request would have got.
 */
export async function makeStep(services: Services, boost: BoostRow, step: StepName, steps: StepRow[]): Promise<string> {
  const principal = ownerItself(boost.ownerId);
  const made = madeOf(steps);
  if (step === 'creative') {
    if ('sparkPost' in boost.plan.creative) return boost.plan.creative.sparkPost.itemId;
    const { name, objectStoryId } = boost.plan.creative;
    return withAdAccount('adCreatives', services, principal, boost.adAccountId, { handle: rejected }, async (creatives, account, row) => {
      const request = { name, content: { objectStoryId }, asked: { objectStoryId, objectStorySpec: null } };
      return (await createOnce(services, creatives, account, row, `boost:${boost.id}`, request)).id;
    });
  }
  const level: AdLevel = step;
  const created = await createAdObject(
    services,
    principal,
    level,
    { adAccountId: boost.adAccountId, validateOnly: false },
    treeInput(boost, step, made),
    `boost:${boost.id}:${step}`,
  );
  if (created.status !== 201) throw new Error(`the ${step} of boost ${boost.id} was validated, not created`);
  return created.body.id;
}

/**
 * Deletes what a step made (a rollback): the ad, the creative, the ad set, the campaign, each by itself (deleting
 * one deleted or gone is done already). A Spark post's step made nothing; the post stays authorised, the
 * creator's grant to the advertiser.
 */
export async function deleteStep(services: Services, boost: BoostRow, step: StepName, platformId: string): Promise<void> {
  const principal = ownerItself(boost.ownerId);
  if (step === 'creative') {
    if ('sparkPost' in boost.plan.creative) return;
    await withAdAccount('adCreatives', services, principal, boost.adAccountId, {}, (creatives, account) =>
      creatives.deleteCreative(account, platformId),
    );
    return;
  }
  await withAdAccount('adCampaigns', services, principal, boost.adAccountId, { handle: adRefusals() }, (campaigns, account) =>
    campaigns.delete(account, step, platformId),
  );
}
