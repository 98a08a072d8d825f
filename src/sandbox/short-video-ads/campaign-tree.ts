/**
 * The Business API's campaign tree as the sandbox keeps it: campaigns, ad groups and ads of an advertiser, each with
 * the `operation_status` the advertiser sets (ENABLE, DISABLE, DELETE) and the `secondary_status` the platform
 * derives from it, its parents, its schedule and, for an ad, its review. Amounts are the advertiser's currency in
 * major units, decimals as the API sends them.
 */
export type OperationStatus = 'ENABLE' | 'DISABLE' | 'DELETE';
export type Review = 'AUDIT' | 'APPROVED' | 'DENIED';

export interface Campaign {
  advertiser_id: string;
  campaign_id: string;
  campaign_name: string;
  objective_type: string;
  budget_mode: string;
  budget: number;
  /** Campaign budget optimisation: the campaign's budget is shared by its ad groups, which then have none. */
  budget_optimize_on: boolean;
  special_industries: string[];
  operation_status: OperationStatus;
  create_time: string;
  modify_time: string;
}

export interface AdGroup {
  advertiser_id: string;
  campaign_id: string;
  adgroup_id: string;
  adgroup_name: string;
  placement_type: string;
  placements: string[];
  location_ids: string[];
  age_groups: string[];
  gender: string;
  languages: string[];
  interest_category_ids: string[];
  audience_ids: string[];
  excluded_audience_ids: string[];
  budget_mode: string;
  budget: number;
  schedule_type: string;
  schedule_start_time: string;
  schedule_end_time: string | null;
  optimization_goal: string;
  billing_event: string;
  bid_type: string;
  bid_price: number;
  operation_status: OperationStatus;
  create_time: string;
  modify_time: string;
}

export interface Ad {
  advertiser_id: string;
  campaign_id: string;
  adgroup_id: string;
  ad_id: string;
  ad_name: string;
  ad_format: string;
  ad_text: string;
  video_id: string | null;
  /** A Spark ad's TikTok post (it has no `video_id`: the post is its video). */
  tiktok_item_id: string | null;
  image_ids: string[];
  identity_type: string | null;
  identity_id: string | null;
  call_to_action: string | null;
  landing_page_url: string | null;
  utm_params: Array<{ key: string; value: string }>;
  operation_status: OperationStatus;
  review: Review;
  create_time: string;
  modify_time: string;
}

/** A failure the people set for the next call of the tree (throttling 40100, an outage 50002 …), or of one path of it. */
export interface InjectedFailure {
  code: number;
  message: string;
  /** Only a call of this path (`ad/create/`); any call when absent. */
  path?: string;
}

/** What the sandbox keeps of the tree across a restart. */
export interface CampaignTreeState {
  campaigns: Map<string, Campaign>;
  adgroups: Map<string, AdGroup>;
  ads: Map<string, Ad>;
  nextId: bigint;
  failNext: InjectedFailure | null;
  /** The next create (of `path`, `ad/create/`, when one is given) is done, and the connection drops before its answer. */
  loseNext: { path?: string } | null;
}

export function emptyTree(): CampaignTreeState {
  return { campaigns: new Map(), adgroups: new Map(), ads: new Map(), nextId: 1800000000000000000n, failNext: null, loseNext: null };
}

/** The API's time: `YYYY-MM-DD HH:MM:SS`, UTC. */
export const apiTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
export const parseApiTime = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);

export const OBJECTIVES = [
  'REACH',
  'TRAFFIC',
  'VIDEO_VIEWS',
  'ENGAGEMENT',
  'APP_PROMOTION',
  'LEAD_GENERATION',
  'WEB_CONVERSIONS',
  'PRODUCT_SALES',
] as const;

/** The optimisation goals each objective takes, and the billing events each goal may be billed by. */
export const GOALS: Record<string, Record<string, string[]>> = {
  REACH: { REACH: ['CPM'] },
  TRAFFIC: { CLICK: ['CPC'], TRAFFIC_LANDING_PAGE_VIEW: ['OCPM'] },
  VIDEO_VIEWS: { ENGAGED_VIEW: ['CPV'], VIDEO_VIEW: ['CPV'] },
  ENGAGEMENT: { FOLLOWERS: ['OCPM'], PROFILE_VIEWS: ['OCPM'] },
  APP_PROMOTION: { INSTALL: ['OCPM'], IN_APP_EVENT: ['OCPM'] },
  LEAD_GENERATION: { LEAD_GENERATION: ['OCPM'] },
  WEB_CONVERSIONS: { CONVERT: ['OCPM'], CLICK: ['CPC'] },
  PRODUCT_SALES: { CONVERT: ['OCPM'] },
};

/**
 * The smallest budgets, in the advertiser's currency: a campaign's daily or total budget, an ad group's daily
 * budget (and its total budget per scheduled day). Currencies not listed follow USD's figures.
 */
export const MIN_BUDGET: Record<string, { campaign: number; adgroup: number }> = {
  USD: { campaign: 50, adgroup: 20 },
  EUR: { campaign: 50, adgroup: 20 },
  GBP: { campaign: 50, adgroup: 20 },
  JPY: { campaign: 5000, adgroup: 2000 },
};

/** The locations ads may target (`tool/region`): GeoNames ids, as the platform's `location_id`s are. */
export const REGIONS = [
  { location_id: '6252001', name: 'United States', region_code: 'US', level: 'COUNTRY', parent_id: '0' },
  { location_id: '6251999', name: 'Canada', region_code: 'CA', level: 'COUNTRY', parent_id: '0' },
  { location_id: '2635167', name: 'United Kingdom', region_code: 'GB', level: 'COUNTRY', parent_id: '0' },
  { location_id: '2921044', name: 'Germany', region_code: 'DE', level: 'COUNTRY', parent_id: '0' },
  { location_id: '3017382', name: 'France', region_code: 'FR', level: 'COUNTRY', parent_id: '0' },
  { location_id: '3175395', name: 'Italy', region_code: 'IT', level: 'COUNTRY', parent_id: '0' },
  { location_id: '2510769', name: 'Spain', region_code: 'ES', level: 'COUNTRY', parent_id: '0' },
  { location_id: '2782113', name: 'Austria', region_code: 'AT', level: 'COUNTRY', parent_id: '0' },
  { location_id: '1861060', name: 'Japan', region_code: 'JP', level: 'COUNTRY', parent_id: '0' },
  { location_id: '2077456', name: 'Australia', region_code: 'AU', level: 'COUNTRY', parent_id: '0' },
  { location_id: '5332921', name: 'California', region_code: 'US-CA', level: 'PROVINCE', parent_id: '6252001' },
  { location_id: '2951839', name: 'Bavaria', region_code: 'DE-BY', level: 'PROVINCE', parent_id: '2921044' },
];

/** The decimals an amount may have in a currency (none in JPY and KRW). */
export const decimalsOf = (currency: string) => (['JPY', 'KRW', 'VND', 'IDR'].includes(currency) ? 0 : 2);

/** What the platform says of a campaign's delivery. */
export function campaignSecondary(campaign: Campaign): string {
  if (campaign.operation_status === 'DELETE') return 'CAMPAIGN_STATUS_DELETE';
  if (campaign.operation_status === 'DISABLE') return 'CAMPAIGN_STATUS_DISABLE';
  return 'CAMPAIGN_STATUS_ENABLE';
}

/** An ad group's: its campaign deleted or paused comes first, then its own status, then its schedule. */
export function adgroupSecondary(tree: CampaignTreeState, adgroup: AdGroup, now = Date.now()): string {
  const campaign = tree.campaigns.get(adgroup.campaign_id)!;
  if (campaign.operation_status === 'DELETE') return 'ADGROUP_STATUS_CAMPAIGN_DELETE';
  if (adgroup.operation_status === 'DELETE') return 'ADGROUP_STATUS_DELETE';
  if (campaign.operation_status === 'DISABLE') return 'ADGROUP_STATUS_CAMPAIGN_DISABLE';
  if (adgroup.operation_status === 'DISABLE') return 'ADGROUP_STATUS_DISABLE';
  if (adgroup.schedule_end_time && parseApiTime(adgroup.schedule_end_time) <= now) return 'ADGROUP_STATUS_TIME_DONE';
  if (parseApiTime(adgroup.schedule_start_time) > now) return 'ADGROUP_STATUS_NOT_START';
  return 'ADGROUP_STATUS_DELIVERY_OK';
}

/** An ad's: its parents' state first, then its own, then its review, then its ad group's schedule. */
export function adSecondary(tree: CampaignTreeState, ad: Ad, now = Date.now()): string {
  const campaign = tree.campaigns.get(ad.campaign_id)!;
  const adgroup = tree.adgroups.get(ad.adgroup_id)!;
  if (campaign.operation_status === 'DELETE') return 'AD_STATUS_CAMPAIGN_DELETE';
  if (adgroup.operation_status === 'DELETE') return 'AD_STATUS_ADGROUP_DELETE';
  if (ad.operation_status === 'DELETE') return 'AD_STATUS_DELETE';
  if (campaign.operation_status === 'DISABLE') return 'AD_STATUS_CAMPAIGN_DISABLE';
  if (adgroup.operation_status === 'DISABLE') return 'AD_STATUS_ADGROUP_DISABLE';
  if (ad.operation_status === 'DISABLE') return 'AD_STATUS_DISABLE';
  if (ad.review === 'AUDIT') return 'AD_STATUS_AUDIT';
  if (ad.review === 'DENIED') return 'AD_STATUS_AUDIT_DENY';
  const group = adgroupSecondary(tree, adgroup, now);
  if (group === 'ADGROUP_STATUS_TIME_DONE') return 'AD_STATUS_DONE';
  if (group === 'ADGROUP_STATUS_NOT_START') return 'AD_STATUS_NOT_START';
  return 'AD_STATUS_DELIVERY_OK';
}

/** The primary status a secondary one falls under, as `filtering.primary_status` matches them. */
export function primaryOf(secondary: string): string {
  if (secondary.endsWith('DELETE')) return 'STATUS_DELETE';
  if (secondary.endsWith('DISABLE')) return 'STATUS_DISABLE';
  if (secondary.endsWith('DELIVERY_OK') || secondary === 'CAMPAIGN_STATUS_ENABLE') return 'STATUS_DELIVERY_OK';
  if (secondary.endsWith('TIME_DONE') || secondary === 'AD_STATUS_DONE') return 'STATUS_TIME_DONE';
  return 'STATUS_NOT_DELIVERY';
}
