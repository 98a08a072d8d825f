import type { components } from '../../../../generated/api.js';
import type { AdCampaignInput, AdInput, AdInputOf, AdLevel, AdObjectOf, AdSetInput } from '../../../platforms/capabilities/ad-campaigns.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import { writeOnce } from '../../platform-writes/ledger.js';
import { platformProductSetId } from '../../commerce/api.js';
import { withAdAccount } from '../access.js';
import { adRefusals } from '../refusals.js';
import { type PresentedOf, presentAdObject } from './present.js';

type Schemas = components['schemas'];
type Body = Schemas['AdCampaignCreate'] | Schemas['AdSetCreate'] | Schemas['AdCreate'];
type Created<L extends AdLevel> = { status: 201; body: PresentedOf<L> } | { status: 200; body: Schemas['AdValidation'] };

/** A campaign as the platform is asked for it, the contract's defaults filled in (the validator checks, it does not fill). */
export function campaignInput(body: Schemas['AdCampaignCreate']): AdCampaignInput {
  const { adAccountId: _, validateOnly: __, ...input } = body;
  return {
    ...input,
    status: body.status ?? 'PAUSED',
    specialAdCategories: body.specialAdCategories ?? [],
    specialAdCategoryCountries: body.specialAdCategoryCountries ?? [],
    isAdsetBudgetSharingEnabled: body.isAdsetBudgetSharingEnabled ?? false,
  };
}

export function adSetInput(body: Schemas['AdSetCreate']): AdSetInput {
  const { adAccountId: _, validateOnly: __, ...input } = body;
  return {
    ...input,
    status: body.status ?? 'PAUSED',
    billingEvent: body.billingEvent ?? 'IMPRESSIONS',
    bidStrategy: body.bidStrategy ?? 'LOWEST_COST_WITHOUT_CAP',
    promotedObject: body.promotedObject ?? undefined,
  };
}

export function adInput(body: Schemas['AdCreate']): AdInput {
  const { adAccountId: _, validateOnly: __, ...input } = body;
  return { ...input, status: body.status ?? 'PAUSED' };
}

/**
 * Creates a campaign, ad set or ad on the ad account's platform, once per key: the platform-write ledger records the
 * attempt before the call, and a lost answer is looked up on the platform (same parent, same name, created since the
 * attempt), never created again. With `validateOnly` nothing is created: the platform's dry run (or our checks
 * where it has none) answers 200. Nothing but the ledger's record is stored: the object lives on the platform.
 */
/**
 * The ad set's promoted product set as the platform knows it: ours (`pset_…`, the caller's: 404 for another
 * owner's, 403 outside the key's profiles) named by the platform's own id, which is what the platform is sent.
 */
export async function withPlatformProductSet(services: Services, principal: Principal, input: AdSetInput): Promise<AdSetInput> {
  const productSetId = input.promotedObject?.productSetId;
  if (!productSetId) return input;
  return {
    ...input,
    promotedObject: { ...input.promotedObject, productSetId: await platformProductSetId(services, principal, productSetId) },
  };
}

export async function createAdObject<L extends AdLevel>(
  services: Services,
  principal: Principal,
  level: L,
  body: Pick<Body, 'adAccountId' | 'validateOnly'>,
  input: AdInputOf<L>,
  ledgerKey: string,
): Promise<Created<L>> {
  return withAdAccount('adCampaigns', services, principal, body.adAccountId, { handle: adRefusals() }, async (campaigns, account, row) => {
    if (body.validateOnly) {
      const checkedBy = await campaigns.validate(account, level, input);
      return { status: 200, body: { level, valid: true, checkedBy } };
    }
    let made: AdObjectOf<L> | null = null;
    const written = await writeOnce(services.db, {
      ownerId: row.ownerId,
      accountId: row.id,
      key: ledgerKey,
      kind: `ad.${level}.create`,
      request: input,
      send: async () => {
        made = await campaigns.create(account, level, input);
        return { id: made.id };
      },
      reconcile: async (since) => {
        const found = await campaigns.findCreated(account, level, input, since);
        return found ? { id: found.id } : null;
      },
      store: async () => {},
    });
    // A replayed or reconciled write answers the object as the platform has it now.
    const object = made ?? (await campaigns.get(account, level, written.result.id));
    if (!object) throw new Error(`the ${level} ${written.result.id} created on the platform is gone`);
    return { status: 201, body: presentAdObject(object, row) };
  });
}
