import type { Ad, AdGroup, Campaign, CampaignTreeState, OperationStatus } from './campaign-tree.js';
import { adgroupSecondary, adSecondary, campaignSecondary } from './campaign-tree.js';
import { strings } from './campaign-rules.js';

type Body = Record<string, unknown>;

/** One level of the tree as `get` and `status/update` treat them alike. */
export interface Level<T extends { advertiser_id: string; operation_status: OperationStatus; create_time: string }> {
  objects: Map<string, T>;
  /** The id's field name, the list's in status updates (`campaign_ids`), and the status filters meaning all / not deleted. */
  id: string;
  ids: string;
  all: string;
  notDeleted: string;
  secondary(object: T): string;
  view(object: T): Body;
  /** What `filtering` narrows besides ids and statuses: id lists of its parents, its name. */
  filters: Record<string, (object: T, wanted: unknown) => boolean>;
}

const oneOf = (field: string) => (object: object, wanted: unknown) =>
  strings(wanted) && wanted.includes(String((object as Record<string, unknown>)[field]));
const named = (field: string) => (object: object, wanted: unknown) =>
  typeof wanted === 'string' &&
  String((object as Record<string, unknown>)[field])
    .toLowerCase()
    .includes(wanted.toLowerCase());

/** How the tree's objects are shown (with their names up the tree and their secondary status), and its three levels. */
export function campaignLevels(tree: CampaignTreeState) {
  const campaignView = (c: Campaign): Body => ({ ...c, secondary_status: campaignSecondary(c) });
  const adgroupView = (g: AdGroup): Body => ({
    ...g,
    campaign_name: tree.campaigns.get(g.campaign_id)!.campaign_name,
    secondary_status: adgroupSecondary(tree, g),
  });
  const adView = ({ review: _review, ...ad }: Ad): Body => ({
    ...ad,
    campaign_name: tree.campaigns.get(ad.campaign_id)!.campaign_name,
    adgroup_name: tree.adgroups.get(ad.adgroup_id)!.adgroup_name,
    secondary_status: adSecondary(tree, { ...ad, review: _review }),
  });

  const levels = {
    campaign: {
      objects: tree.campaigns,
      id: 'campaign_id',
      ids: 'campaign_ids',
      all: 'CAMPAIGN_STATUS_ALL',
      notDeleted: 'CAMPAIGN_STATUS_NOT_DELETE',
      secondary: campaignSecondary,
      view: campaignView,
      filters: {
        campaign_ids: oneOf('campaign_id'),
        campaign_name: named('campaign_name'),
        objective_type: (c, w) => c.objective_type === w,
      },
    } satisfies Level<Campaign>,
    adgroup: {
      objects: tree.adgroups,
      id: 'adgroup_id',
      ids: 'adgroup_ids',
      all: 'ADGROUP_STATUS_ALL',
      notDeleted: 'ADGROUP_STATUS_NOT_DELETE',
      secondary: (g) => adgroupSecondary(tree, g),
      view: adgroupView,
      filters: { campaign_ids: oneOf('campaign_id'), adgroup_ids: oneOf('adgroup_id'), adgroup_name: named('adgroup_name') },
    } satisfies Level<AdGroup>,
    ad: {
      objects: tree.ads,
      id: 'ad_id',
      ids: 'ad_ids',
      all: 'AD_STATUS_ALL',
      notDeleted: 'AD_STATUS_NOT_DELETE',
      secondary: (ad) => adSecondary(tree, ad),
      view: adView,
      filters: { campaign_ids: oneOf('campaign_id'), adgroup_ids: oneOf('adgroup_id'), ad_ids: oneOf('ad_id'), ad_name: named('ad_name') },
    } satisfies Level<Ad>,
  };
  return { levels, views: { campaign: campaignView, adgroup: adgroupView, ad: adView } };
}
