import type { components } from '../../../../generated/api.js';
import type {
  AdCampaigns,
  AdEffectiveStatus,
  AdListFilter,
  AdLevel,
  AdObjectOf,
  AdsAccount,
} from '../../../platforms/capabilities/ad-campaigns.js';
import type { AdDatePreset } from '../../../platforms/capabilities/ad-insights.js';
import type { Services } from '../../../services.js';
import type { Principal } from '../../auth/principal.js';
import { AdObjectNotFoundError } from '../errors.js';
import { withAdAccount } from '../access.js';
import { adRefusals } from '../refusals.js';
import { presentAdObject } from '../tree/present.js';
import { treeFigures } from './tree-figures.js';

type Schemas = components['schemas'];

/** The platform's pages a tree is read in: the most a list answers in one page. */
const PAGE = 100;
/** Every effective status: a list asked for all of them leaves nothing out, deleted and archived objects included. */
export const EVERY_STATUS: AdEffectiveStatus[] = [
  'ACTIVE',
  'PAUSED',
  'CAMPAIGN_PAUSED',
  'ADSET_PAUSED',
  'IN_PROCESS',
  'PENDING_REVIEW',
  'PREAPPROVED',
  'DISAPPROVED',
  'WITH_ISSUES',
  'PENDING_BILLING_INFO',
  'ARCHIVED',
  'DELETED',
];

/** Every object of `level` the filter narrows, page after page of the platform's list. */
export async function everyObject<L extends AdLevel>(
  campaigns: AdCampaigns,
  account: AdsAccount,
  level: L,
  filter: AdListFilter,
): Promise<Array<AdObjectOf<L>>> {
  const objects: Array<AdObjectOf<L>> = [];
  let after: string | undefined;
  do {
    const page = await campaigns.list(account, level, filter, PAGE, after);
    objects.push(...page.items);
    after = page.nextCursor ?? undefined;
  } while (after);
  return objects;
}

/**
 * One campaign with its ad sets and their ads, read live: the campaign, then its ad sets, its ads (two lists
 * narrowed to the campaign) and its ads' figures over `datePreset` (one insights read), side by side; the ads put
 * under their ad sets, each object with the figures of the ads under it. Deleted and archived ad sets and ads
 * only with `includeDeleted`.
 */
export async function campaignTree(
  services: Services,
  principal: Principal,
  query: { adAccountId: string; campaignId: string; includeDeleted?: boolean; datePreset?: AdDatePreset },
): Promise<Schemas['AdCampaignTree']> {
  return withAdAccount(
    'adCampaigns',
    services,
    principal,
    query.adAccountId,
    { handle: adRefusals('query') },
    async (campaigns, account, row) => {
      const campaign = await campaigns.get(account, 'campaign', query.campaignId);
      if (!campaign) throw new AdObjectNotFoundError('campaign');
      const filter: AdListFilter = { campaignId: campaign.id, ...(query.includeDeleted ? { effectiveStatus: EVERY_STATUS } : {}) };
      const preset = query.datePreset ?? 'last_7d';
      const [adsets, ads, figures] = await Promise.all([
        everyObject(campaigns, account, 'adset', filter),
        everyObject(campaigns, account, 'ad', filter),
        treeFigures(services.platforms.get(row.platform)?.adInsights, account, row, campaign.id, preset),
      ]);
      const idsOf = (some: Array<{ id: string }>) => some.map((ad) => ad.id);
      return {
        campaign: { ...presentAdObject(campaign, row), figures: figures.of() },
        adsets: adsets.map((adset) => {
          const own = ads.filter((ad) => ad.adsetId === adset.id);
          return {
            adset: { ...presentAdObject(adset, row), figures: figures.of(idsOf(own)) },
            ads: own.map((ad) => ({ ...presentAdObject(ad, row), figures: figures.of([ad.id]) })),
          };
        }),
        figuresPeriod: preset,
        figuresUnavailable: figures.unavailable,
      };
    },
  );
}
