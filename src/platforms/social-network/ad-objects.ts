import type {
  AdAdObject,
  AdCampaignObject,
  AdEffectiveStatus,
  AdLevel,
  AdObjectIssue,
  AdObjectOf,
  AdSetObject,
  AdStatus,
  AdTargeting,
  AdTreeObject,
} from '../capabilities/ad-campaigns.js';

/**
 * The Marketing API's campaigns, ad sets and ads as the Graph answers them, and their normalised form; targeting
 * both ways. Meta's budgets are already minor units of the account's currency (its "offset"), as strings.
 */

interface GraphIssue {
  level?: string;
  error_code?: number;
  error_summary?: string;
  error_message?: string;
}
interface GraphCommon {
  id: string;
  account_id?: string;
  name?: string;
  status?: string;
  effective_status?: string;
  issues_info?: GraphIssue[];
  created_time?: string;
  updated_time?: string;
}
export interface GraphCampaign extends GraphCommon {
  objective?: string;
  daily_budget?: string | number;
  lifetime_budget?: string | number;
  bid_strategy?: string;
  special_ad_categories?: string[];
  special_ad_category_country?: string[];
  is_adset_budget_sharing_enabled?: boolean;
  start_time?: string;
  stop_time?: string;
}
export interface GraphAdSet extends GraphCommon {
  campaign_id?: string;
  daily_budget?: string | number;
  lifetime_budget?: string | number;
  billing_event?: string;
  optimization_goal?: string;
  bid_strategy?: string;
  bid_amount?: string | number;
  targeting?: GraphTargeting;
  promoted_object?: Record<string, string>;
  dsa_beneficiary?: string;
  dsa_payor?: string;
  start_time?: string;
  end_time?: string;
}
export interface GraphAd extends GraphCommon {
  campaign_id?: string;
  adset_id?: string;
  creative?: { id?: string };
  url_tags?: string;
  preview_shareable_link?: string;
}
export type GraphTreeObject = GraphCampaign & GraphAdSet & GraphAd;

interface GraphKeyed {
  key: string;
  name?: string;
}
export interface GraphTargeting {
  geo_locations?: {
    countries?: string[];
    regions?: GraphKeyed[];
    cities?: Array<GraphKeyed & { radius?: number; distance_unit?: 'kilometer' | 'mile' }>;
    zips?: GraphKeyed[];
  };
  age_min?: number;
  age_max?: number;
  genders?: number[];
  flexible_spec?: Array<{ interests?: Array<{ id: string; name?: string }> }>;
  custom_audiences?: Array<{ id: string }>;
  excluded_custom_audiences?: Array<{ id: string }>;
  locales?: number[];
  targeting_automation?: { advantage_audience?: number };
}

const COMMON_FIELDS = 'id,account_id,name,status,effective_status,issues_info,created_time,updated_time';
/** What is asked of each level: the members the normalised object needs. */
export const FIELDS: Record<AdLevel, string> = {
  campaign: `${COMMON_FIELDS},objective,daily_budget,lifetime_budget,bid_strategy,special_ad_categories,special_ad_category_country,is_adset_budget_sharing_enabled,start_time,stop_time`,
  adset: `${COMMON_FIELDS},campaign_id,daily_budget,lifetime_budget,billing_event,optimization_goal,bid_strategy,bid_amount,targeting,promoted_object,dsa_beneficiary,dsa_payor,start_time,end_time`,
  ad: `${COMMON_FIELDS},campaign_id,adset_id,creative{id},url_tags,preview_shareable_link`,
};
/** The member only objects of a level have: what tells an ad set's id asked for as a campaign. */
const LEVEL_MARK: Record<AdLevel, keyof GraphTreeObject> = { campaign: 'objective', adset: 'optimization_goal', ad: 'adset_id' };
export const EDGE: Record<AdLevel, string> = { campaign: 'campaigns', adset: 'adsets', ad: 'ads' };

/** Meta's display words of a status, as its `in_process_ad_objects` webhooks carry them in `status_name`. */
const STATUS_NAMES: Partial<Record<AdEffectiveStatus, string>> = {
  ACTIVE: 'Active',
  PAUSED: 'Paused',
  CAMPAIGN_PAUSED: 'Campaign paused',
  ADSET_PAUSED: 'Ad set paused',
  IN_PROCESS: 'In process',
  PENDING_REVIEW: 'Pending review',
  PREAPPROVED: 'Preapproved',
  DISAPPROVED: 'Disapproved',
  WITH_ISSUES: 'With issues',
  PENDING_BILLING_INFO: 'Pending billing info',
  ARCHIVED: 'Archived',
  DELETED: 'Deleted',
};
/** Every effective status: a lookup after a lost answer asks for paused, pending and deleted objects too. */
export const EFFECTIVE_STATUSES = Object.keys(STATUS_NAMES);
const EFFECTIVE = new Set(EFFECTIVE_STATUSES);
const ISSUE_LEVELS: Record<string, AdObjectIssue['level']> = { CAMPAIGN: 'campaign', AD_SET: 'adset', AD: 'ad', CREATIVE: 'creative' };
const GENDERS: Record<number, 'male' | 'female'> = { 1: 'male', 2: 'female' };

/** A Graph time (`2026-11-22T10:00:00+0000`) as ISO 8601 UTC. */
const iso = (time: string) => new Date(time.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')).toISOString().replace('.000Z', 'Z');
const isoOrNull = (time: string | undefined) => (time ? iso(time) : null);
const amount = (value: string | number | undefined) => (value === undefined || value === '' ? null : Number(value));

/** The object is of `level` and in the ad account (`act_…`). */
export function isOf(raw: GraphTreeObject, level: AdLevel, adAccountId: string): boolean {
  return raw[LEVEL_MARK[level]] !== undefined && (raw.account_id === undefined || `act_${raw.account_id}` === adAccountId);
}

function common(raw: GraphCommon) {
  const configured = (raw.status ?? 'PAUSED') as AdStatus;
  const effective = (EFFECTIVE.has(raw.effective_status ?? '') ? raw.effective_status : configured) as AdEffectiveStatus;
  return {
    id: raw.id,
    name: raw.name ?? '',
    status: configured,
    effectiveStatus: effective,
    platformStatus: raw.effective_status ?? configured,
    statusName: STATUS_NAMES[effective] ?? null,
    issues: (raw.issues_info ?? []).map((issue) => ({
      level: ISSUE_LEVELS[issue.level ?? ''] ?? 'ad',
      error_code: issue.error_code ?? null,
      error_summary: issue.error_summary ?? '',
      error_message: issue.error_message ?? '',
    })),
    createdAt: iso(raw.created_time ?? new Date().toISOString()),
    updatedAt: iso(raw.updated_time ?? raw.created_time ?? new Date().toISOString()),
  };
}

export function targetingOf(raw: GraphTargeting = {}): AdTargeting {
  const geo = raw.geo_locations ?? {};
  const keyed = (list: GraphKeyed[]) => list.map(({ key, name }) => ({ key, name: name ?? null }));
  const interests = (raw.flexible_spec ?? []).flatMap((spec) => spec.interests ?? []);
  const advantage = raw.targeting_automation?.advantage_audience;
  return {
    geoLocations: {
      ...(geo.countries ? { countries: geo.countries } : {}),
      ...(geo.regions ? { regions: keyed(geo.regions) } : {}),
      ...(geo.cities
        ? {
            cities: geo.cities.map((city) => ({
              key: city.key,
              name: city.name ?? null,
              radius: city.radius ?? null,
              distanceUnit: city.distance_unit ?? 'kilometer',
            })),
          }
        : {}),
      ...(geo.zips ? { zips: keyed(geo.zips) } : {}),
    },
    ...(advantage === undefined ? {} : { advantageAudience: advantage === 1 }),
    ageMin: raw.age_min ?? 18,
    ageMax: raw.age_max ?? 65,
    ...(raw.genders?.length ? { genders: raw.genders.map((gender) => GENDERS[gender]!).filter(Boolean) } : {}),
    ...(interests.length ? { interests: interests.map(({ id, name }) => ({ id, name: name ?? null })) } : {}),
    ...(raw.custom_audiences?.length ? { customAudiences: raw.custom_audiences.map(({ id }) => id) } : {}),
    ...(raw.excluded_custom_audiences?.length ? { excludedCustomAudiences: raw.excluded_custom_audiences.map(({ id }) => id) } : {}),
    ...(raw.locales?.length ? { locales: raw.locales.map(String) } : {}),
  };
}

/** Whether targeting narrows who is reached beyond places: what makes the Advantage+ audience flag required. */
export function narrows(targeting: AdTargeting): boolean {
  return (
    (targeting.ageMin ?? 18) !== 18 ||
    (targeting.ageMax ?? 65) !== 65 ||
    (targeting.genders ?? []).length > 0 ||
    (targeting.interests ?? []).length > 0 ||
    (targeting.customAudiences ?? []).length > 0 ||
    (targeting.excludedCustomAudiences ?? []).length > 0 ||
    (targeting.locales ?? []).length > 0
  );
}

/** Our targeting in the Graph's words; `advantageAudience` left out is sent as off whenever the targeting narrows. */
export function graphTargeting(targeting: AdTargeting): GraphTargeting {
  const geo = targeting.geoLocations;
  const ids = (list: string[] | undefined) => (list?.length ? list.map((id) => ({ id })) : undefined);
  const advantage = targeting.advantageAudience ?? (narrows(targeting) ? false : undefined);
  return {
    geo_locations: {
      ...(geo.countries ? { countries: geo.countries } : {}),
      ...(geo.regions ? { regions: geo.regions.map(({ key }) => ({ key })) } : {}),
      ...(geo.cities
        ? {
            cities: geo.cities.map((city) => ({
              key: city.key,
              ...(city.radius ? { radius: city.radius, distance_unit: city.distanceUnit ?? 'kilometer' } : {}),
            })),
          }
        : {}),
      ...(geo.zips ? { zips: geo.zips.map(({ key }) => ({ key })) } : {}),
    },
    age_min: targeting.ageMin,
    age_max: targeting.ageMax,
    genders: targeting.genders?.length ? targeting.genders.map((gender) => (gender === 'male' ? 1 : 2)) : undefined,
    flexible_spec: targeting.interests?.length ? [{ interests: targeting.interests.map(({ id }) => ({ id })) }] : undefined,
    custom_audiences: ids(targeting.customAudiences),
    excluded_custom_audiences: ids(targeting.excludedCustomAudiences),
    locales: targeting.locales?.length ? targeting.locales.map(Number) : undefined,
    ...(advantage === undefined ? {} : { targeting_automation: { advantage_audience: advantage ? 1 : 0 } }),
  };
}

function campaignOf(raw: GraphCampaign, currency: string): AdCampaignObject {
  const daily = amount(raw.daily_budget);
  const lifetime = amount(raw.lifetime_budget);
  const categories = (raw.special_ad_categories ?? []).filter((category) => category !== 'NONE');
  return {
    ...common(raw),
    level: 'campaign',
    objective: raw.objective as AdCampaignObject['objective'],
    dailyBudget: daily,
    lifetimeBudget: lifetime,
    currency,
    bidStrategy: (raw.bid_strategy as AdCampaignObject['bidStrategy']) ?? null,
    specialAdCategories: categories as AdCampaignObject['specialAdCategories'],
    specialAdCategoryCountries: raw.special_ad_category_country ?? [],
    isAdsetBudgetSharingEnabled: daily === null && lifetime === null ? (raw.is_adset_budget_sharing_enabled ?? false) : null,
    startTime: isoOrNull(raw.start_time),
    stopTime: isoOrNull(raw.stop_time),
  };
}

function adSetOf(raw: GraphAdSet, currency: string): AdSetObject {
  const promoted = raw.promoted_object;
  const base = common(raw);
  return {
    ...base,
    level: 'adset',
    campaignId: raw.campaign_id ?? '',
    dailyBudget: amount(raw.daily_budget),
    lifetimeBudget: amount(raw.lifetime_budget),
    currency,
    billingEvent: (raw.billing_event ?? 'IMPRESSIONS') as AdSetObject['billingEvent'],
    optimizationGoal: raw.optimization_goal as AdSetObject['optimizationGoal'],
    bidStrategy: (raw.bid_strategy as AdSetObject['bidStrategy']) ?? null,
    bidAmount: amount(raw.bid_amount),
    targeting: targetingOf(raw.targeting),
    promotedObject: promoted
      ? {
          ...(promoted.pixel_id ? { pixelId: promoted.pixel_id } : {}),
          ...(promoted.custom_event_type ? { customEventType: promoted.custom_event_type as never } : {}),
          ...(promoted.custom_conversion_id ? { customConversionId: promoted.custom_conversion_id } : {}),
          ...(promoted.page_id ? { pageId: promoted.page_id } : {}),
        }
      : null,
    dsaBeneficiary: raw.dsa_beneficiary ?? null,
    dsaPayor: raw.dsa_payor ?? null,
    startTime: isoOrNull(raw.start_time) ?? base.createdAt,
    endTime: isoOrNull(raw.end_time),
  };
}

function adOf(raw: GraphAd): AdAdObject {
  return {
    ...common(raw),
    level: 'ad',
    campaignId: raw.campaign_id ?? '',
    adsetId: raw.adset_id ?? '',
    creativeId: raw.creative?.id ?? '',
    urlTags: raw.url_tags || null,
    previewUrl: raw.preview_shareable_link ?? null,
  };
}

/** The Graph's object of `level` in its normalised form, amounts in `currency`. */
export function treeObjectOf<L extends AdLevel>(level: L, raw: GraphTreeObject, currency: string): AdObjectOf<L> {
  const object: AdTreeObject = level === 'campaign' ? campaignOf(raw, currency) : level === 'adset' ? adSetOf(raw, currency) : adOf(raw);
  return object as AdObjectOf<L>;
}
