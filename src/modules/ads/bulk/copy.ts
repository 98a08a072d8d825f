import type { components } from '../../../../generated/api.js';
import type {
  AdCampaignInput,
  AdCopyTarget,
  AdCampaigns,
  AdInput,
  AdInputOf,
  AdLevel,
  AdObjectOf,
  AdsAccount,
  AdSetInput,
} from '../../../platforms/capabilities/ad-campaigns.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import type { AdAccountRow } from '../../accounts/models.js';
import { writeOnce } from '../../platform-writes/ledger.js';
import { AdObjectNotFoundError } from '../errors.js';
import { withAdAccount } from '../access.js';
import { adRefusals } from '../refusals.js';
import { presentAdObject } from '../tree/present.js';
import { everyObject } from './tree.js';

type Schemas = components['schemas'];
type Copy = Schemas['AdObjectCopy']['copies'][number];
type Status = 'ACTIVE' | 'PAUSED';

/** A time the copy may keep: one still to come (the platforms refuse a start in the past). */
const ahead = (time: string | null) => (time && Date.parse(time) > Date.now() ? time : undefined);
const given = <T>(value: T | null) => value ?? undefined;

/** What creates an object like `original`, under `parentId`, switched `status`, named `name`. */
function inputLike<L extends AdLevel>(original: AdObjectOf<L>, parentId: string | null, status: Status, name: string): AdInputOf<L> {
  const o = original as AdObjectOf<AdLevel>;
  if (o.level === 'campaign') {
    const campaign: AdCampaignInput = {
      name,
      status,
      objective: o.objective,
      specialAdCategories: o.specialAdCategories,
      specialAdCategoryCountries: o.specialAdCategoryCountries,
      dailyBudget: given(o.dailyBudget),
      lifetimeBudget: given(o.lifetimeBudget),
      bidStrategy: given(o.bidStrategy),
      isAdsetBudgetSharingEnabled: o.isAdsetBudgetSharingEnabled ?? false,
      startTime: ahead(o.startTime),
      stopTime: given(o.stopTime),
    };
    return campaign as AdInputOf<L>;
  }
  if (o.level === 'adset') {
    const adset: AdSetInput = {
      campaignId: parentId!,
      name,
      status,
      dailyBudget: given(o.dailyBudget),
      lifetimeBudget: given(o.lifetimeBudget),
      billingEvent: o.billingEvent,
      optimizationGoal: o.optimizationGoal,
      bidStrategy: given(o.bidStrategy),
      bidAmount: given(o.bidAmount),
      targeting: o.targeting,
      promotedObject: given(o.promotedObject),
      dsaBeneficiary: given(o.dsaBeneficiary),
      dsaPayor: given(o.dsaPayor),
      startTime: ahead(o.startTime),
      endTime: given(o.endTime),
    };
    return adset as AdInputOf<L>;
  }
  const ad: AdInput = { adsetId: parentId!, creativeId: o.creativeId, name, status, urlTags: given(o.urlTags) };
  return ad as AdInputOf<L>;
}

/** The copy under way: where it is made, and what it has made so far. */
interface Copying {
  services: Services;
  campaigns: AdCampaigns;
  account: AdsAccount;
  row: AdAccountRow;
  /** The request's key: each object's copy is a write of its own under it, so a retry makes none twice. */
  ledgerKey: string;
  status: Status;
  copies: Copy[];
}

/**
 * One object's copy, made once under the request's key (a lost answer found on the platform, not made again): by
 * the platform's own copy where it has one, else by creating the object's like.
 */
async function copyOne<L extends AdLevel>(
  copying: Copying,
  original: AdObjectOf<L>,
  parentId: string | null,
  name: string,
): Promise<string> {
  const { services, campaigns, account, row } = copying;
  const { copies } = campaigns;
  const target: AdCopyTarget = { parentId, status: copying.status, name };
  const input = copies ? null : inputLike(original, parentId, copying.status, name);
  const written = await writeOnce(services.db, {
    ownerId: row.ownerId,
    accountId: row.id,
    key: `${copying.ledgerKey}:${original.level}:${original.id}`,
    kind: `ad.${original.level}.copy`,
    request: input ?? { sourceId: original.id, ...target },
    send: async () => ({
      id: copies ? await copies.copy(account, original, target) : (await campaigns.create(account, original.level, input!)).id,
    }),
    reconcile: async (since) => {
      const found = copies
        ? await copies.findCopy(account, original, target, since)
        : ((await campaigns.findCreated(account, original.level, input!, since))?.id ?? null);
      return found ? { id: found } : null;
    },
    store: async () => {},
  });
  copying.copies.push({ level: original.level, sourceId: original.id, id: written.result.id });
  return written.result.id;
}

/** An ad set's copy under `campaignId`, with copies of its ads (those not deleted or archived) when `deep`. */
async function copyAdSet(copying: Copying, adset: AdObjectOf<'adset'>, campaignId: string, name: string, deep: boolean): Promise<string> {
  const id = await copyOne(copying, adset, campaignId, name);
  if (deep) {
    for (const ad of await everyObject(copying.campaigns, copying.account, 'ad', { adsetId: adset.id }))
      await copyOne(copying, ad, id, ad.name);
  }
  return id;
}

/**
 * Copies a campaign, ad set or ad, top first, then (when `deep`) what is in it, each copy under the copy of its
 * parent: one object at a time, by the platform's own copy (Meta) or by reading it and creating its like (TikTok). Each create is a write of its own under the request's key: a retry with
 * the same key finds those made already in the ledger and goes on from where the first attempt stopped.
 */
export async function copyAdObject(
  services: Services,
  principal: Principal,
  body: Schemas['AdObjectCopyCreate'],
  ledgerKey: string,
): Promise<Schemas['AdObjectCopy']> {
  return withAdAccount('adCampaigns', services, principal, body.adAccountId, { handle: adRefusals() }, async (campaigns, account, row) => {
    const original = await campaigns.get(account, body.level, body.objectId);
    if (!original) throw new AdObjectNotFoundError(body.level);
    const copying: Copying = { services, campaigns, account, row, ledgerKey, status: body.status ?? 'PAUSED', copies: [] };
    const name = body.name ?? `${original.name} - Copy`;
    const deep = body.deep ?? true;
    let id: string;
    if (original.level === 'campaign') {
      id = await copyOne(copying, original, null, name);
      if (deep) {
        for (const adset of await everyObject(campaigns, account, 'adset', { campaignId: original.id }))
          await copyAdSet(copying, adset, id, adset.name, true);
      }
    } else if (original.level === 'adset') {
      id = await copyAdSet(copying, original, body.campaignId ?? original.campaignId, name, deep);
    } else {
      id = await copyOne(copying, original, body.adsetId ?? original.adsetId, name);
    }
    const copy = await campaigns.get(account, body.level, id);
    if (!copy) throw new Error(`the copy ${id} made on the platform is gone`);
    return { object: presentAdObject(copy, row), copies: copying.copies };
  });
}
