import type {
  AdEffectiveStatus,
  AdLevel,
  AdObjective,
  AdStatus,
  AdTargeting,
  AdTreeObject,
  AdsAccount,
} from '../capabilities/ad-campaigns.js';
import type { components } from '../../../generated/api.js';
import { toMinorUnits } from '../../lib/money.js';

type Schemas = components['schemas'];

/**
 * The Business API's campaign tree in the contract's words, both ways: objectives, optimisation goals, billing
 * events and bids; `operation_status` and `secondary_status` as our status and effective status (the raw
 * `secondary_status` kept as `platformStatus`); targeting; times and decimal amounts.
 */

/** Each contract objective's objective type on TikTok (the nearest one); read back, each type's objective. */
export const OBJECTIVE_TYPES: Record<AdObjective, string> = {
  OUTCOME_AWARENESS: 'REACH',
  OUTCOME_TRAFFIC: 'TRAFFIC',
  OUTCOME_ENGAGEMENT: 'ENGAGEMENT',
  OUTCOME_LEADS: 'LEAD_GENERATION',
  OUTCOME_APP_PROMOTION: 'APP_PROMOTION',
  OUTCOME_SALES: 'WEB_CONVERSIONS',
};
const OBJECTIVES: Record<string, AdObjective> = {
  REACH: 'OUTCOME_AWARENESS',
  TRAFFIC: 'OUTCOME_TRAFFIC',
  VIDEO_VIEWS: 'OUTCOME_ENGAGEMENT',
  ENGAGEMENT: 'OUTCOME_ENGAGEMENT',
  LEAD_GENERATION: 'OUTCOME_LEADS',
  APP_PROMOTION: 'OUTCOME_APP_PROMOTION',
  WEB_CONVERSIONS: 'OUTCOME_SALES',
  PRODUCT_SALES: 'OUTCOME_SALES',
};
export const objectiveOf = (type: string): AdObjective => OBJECTIVES[type] ?? 'OUTCOME_AWARENESS';

type Goal = Schemas['AdOptimizationGoal'];
type Billing = Schemas['AdBillingEvent'];

/**
 * The optimisation goals each objective type takes, ours → TikTok's, and how each is billed: ours → TikTok's
 * billing event (an impression-billed goal other than reach is optimised CPM).
 */
export const GOALS: Record<string, Partial<Record<Goal, { goal: string; billing: Partial<Record<Billing, string>> }>>> = {
  REACH: { REACH: { goal: 'REACH', billing: { IMPRESSIONS: 'CPM' } } },
  TRAFFIC: {
    LINK_CLICKS: { goal: 'CLICK', billing: { LINK_CLICKS: 'CPC' } },
    LANDING_PAGE_VIEWS: { goal: 'TRAFFIC_LANDING_PAGE_VIEW', billing: { IMPRESSIONS: 'OCPM' } },
  },
  ENGAGEMENT: { PAGE_LIKES: { goal: 'FOLLOWERS', billing: { IMPRESSIONS: 'OCPM' } } },
  LEAD_GENERATION: { LEAD_GENERATION: { goal: 'LEAD_GENERATION', billing: { IMPRESSIONS: 'OCPM' } } },
  APP_PROMOTION: { APP_INSTALLS: { goal: 'INSTALL', billing: { IMPRESSIONS: 'OCPM' } } },
  WEB_CONVERSIONS: {
    OFFSITE_CONVERSIONS: { goal: 'CONVERT', billing: { IMPRESSIONS: 'OCPM' } },
    LINK_CLICKS: { goal: 'CLICK', billing: { LINK_CLICKS: 'CPC' } },
  },
};
const GOALS_BACK: Record<string, Goal> = {
  REACH: 'REACH',
  CLICK: 'LINK_CLICKS',
  TRAFFIC_LANDING_PAGE_VIEW: 'LANDING_PAGE_VIEWS',
  ENGAGED_VIEW: 'THRUPLAY',
  VIDEO_VIEW: 'THRUPLAY',
  FOLLOWERS: 'PAGE_LIKES',
  PROFILE_VIEWS: 'POST_ENGAGEMENT',
  LEAD_GENERATION: 'LEAD_GENERATION',
  INSTALL: 'APP_INSTALLS',
  IN_APP_EVENT: 'APP_INSTALLS',
  CONVERT: 'OFFSITE_CONVERSIONS',
};
const BILLING_BACK: Record<string, Billing> = { CPM: 'IMPRESSIONS', OCPM: 'IMPRESSIONS', CPC: 'LINK_CLICKS', CPV: 'THRUPLAY' };

/** The special ad categories TikTok has (`special_industries`); the others are refused on short_video_ads. */
export const INDUSTRIES: Partial<Record<Schemas['AdSpecialAdCategory'], string>> = {
  HOUSING: 'HOUSING',
  EMPLOYMENT: 'EMPLOYMENT',
  CREDIT: 'CREDIT',
};

/**
 * The smallest budgets TikTok takes, in major units of the advertiser's currency: a campaign's, and an ad group's
 * per day. Currencies not listed are left to the platform's own refusal.
 */
export const MIN_BUDGETS: Record<string, { campaign: number; adgroup: number }> = {
  USD: { campaign: 50, adgroup: 20 },
  EUR: { campaign: 50, adgroup: 20 },
  GBP: { campaign: 50, adgroup: 20 },
  JPY: { campaign: 5000, adgroup: 2000 },
};

/** The API's time (`YYYY-MM-DD HH:MM:SS`, UTC) as ISO 8601, and back. */
export const isoTime = (time: string) => `${time.replace(' ', 'T')}Z`;
export const apiTime = (iso: string) => new Date(iso).toISOString().slice(0, 19).replace('T', ' ');

/** An object as `get` lists it, whatever its level. */
export type Listed = Record<string, unknown> & { operation_status?: string; secondary_status?: string };

/** The advertiser's switch: ENABLE, DISABLE, DELETE (a parent's deletion deletes it too). */
function statusOf(object: Listed): AdStatus {
  if (object.operation_status === 'DELETE' || String(object.secondary_status ?? '').endsWith('DELETE')) return 'DELETED';
  return object.operation_status === 'DISABLE' ? 'PAUSED' : 'ACTIVE';
}

/** What the secondary status says of delivery, in the contract's effective statuses. */
function effectiveOf(object: Listed): AdEffectiveStatus {
  const secondary = String(object.secondary_status ?? '');
  if (secondary.endsWith('DELETE')) return 'DELETED';
  if (secondary.endsWith('_CAMPAIGN_DISABLE')) return 'CAMPAIGN_PAUSED';
  if (secondary === 'AD_STATUS_ADGROUP_DISABLE') return 'ADSET_PAUSED';
  if (secondary.endsWith('_DISABLE')) return 'PAUSED';
  if (/AUDIT_DENY|REJECT/.test(secondary)) return 'DISAPPROVED';
  if (/AUDIT|REVIEW/.test(secondary)) return 'PENDING_REVIEW';
  if (/BALANCE|FROZEN|EXCEED|LIMIT/.test(secondary)) return 'WITH_ISSUES';
  // Delivering, scheduled or done delivering (as Meta's finished objects stay ACTIVE); none given, the switch.
  return statusOf(object) === 'DELETED' ? 'DELETED' : statusOf(object) === 'PAUSED' ? 'PAUSED' : 'ACTIVE';
}

function common(object: Listed, id: string, name: string) {
  return {
    id: String(object[id]),
    name: String(object[name] ?? ''),
    status: statusOf(object),
    effectiveStatus: effectiveOf(object),
    platformStatus: String(object.secondary_status ?? object.operation_status ?? ''),
    statusName: null,
    issues: [],
    createdAt: isoTime(String(object.create_time)),
    updatedAt: isoTime(String(object.modify_time ?? object.create_time)),
  };
}

const minor = (amount: unknown, currency: string) => toMinorUnits(amount as number, currency);

/** A budget by its mode: the daily one, or the total one, in minor units. */
function budgets(object: Listed, currency: string) {
  return {
    dailyBudget: object.budget_mode === 'BUDGET_MODE_DAY' ? minor(object.budget, currency) : null,
    lifetimeBudget: object.budget_mode === 'BUDGET_MODE_TOTAL' ? minor(object.budget, currency) : null,
  };
}

const AGE_GROUPS: Array<[string, number, number]> = [
  ['AGE_13_17', 13, 17],
  ['AGE_18_24', 18, 24],
  ['AGE_25_34', 25, 34],
  ['AGE_35_44', 35, 44],
  ['AGE_45_54', 45, 54],
  ['AGE_55_100', 55, 65],
];

/** The age groups covering `ageMin`..`ageMax` (TikTok targets by groups, not years). */
export function ageGroups(targeting: AdTargeting): string[] {
  const from = targeting.ageMin ?? 18;
  const to = targeting.ageMax ?? 65;
  return AGE_GROUPS.filter(([, low, high]) => high >= from && low <= to).map(([group]) => group);
}

export function genderOf(targeting: AdTargeting): string {
  const genders = targeting.genders ?? [];
  return genders.length === 1 ? (genders[0] === 'male' ? 'GENDER_MALE' : 'GENDER_FEMALE') : 'GENDER_UNLIMITED';
}

/** Targeting as TikTok keeps it, with its countries known by their location ids (`countryIds`: id → ISO code). */
function targetingOf(adgroup: Listed, countryIds: Map<string, string>): AdTargeting {
  const locations = (adgroup.location_ids as string[] | undefined) ?? [];
  const countries = locations.filter((id) => countryIds.has(id)).map((id) => countryIds.get(id)!);
  const regions = locations.filter((id) => !countryIds.has(id)).map((key) => ({ key, name: null }));
  const groups = AGE_GROUPS.filter(([group]) => ((adgroup.age_groups as string[] | undefined) ?? []).includes(group));
  const gender = adgroup.gender;
  const list = (field: string) => (adgroup[field] as string[] | undefined) ?? [];
  return {
    geoLocations: { ...(countries.length ? { countries } : {}), ...(regions.length ? { regions } : {}) },
    ...(groups.length ? { ageMin: groups[0]![1], ageMax: groups.at(-1)![2] } : {}),
    ...(gender === 'GENDER_MALE' ? { genders: ['male'] } : gender === 'GENDER_FEMALE' ? { genders: ['female'] } : {}),
    ...(list('interest_category_ids').length ? { interests: list('interest_category_ids').map((id) => ({ id, name: null })) } : {}),
    ...(list('audience_ids').length ? { customAudiences: list('audience_ids') } : {}),
    ...(list('excluded_audience_ids').length ? { excludedCustomAudiences: list('excluded_audience_ids') } : {}),
    ...(list('languages').length ? { locales: list('languages') } : {}),
  } as AdTargeting;
}

/** An object of the tree as `get` answers it, in the contract's words; amounts in minor units of the account's currency. */
export function treeObject(level: AdLevel, object: Listed, account: AdsAccount, countryIds: Map<string, string>): AdTreeObject {
  const currency = account.currency;
  if (level === 'campaign') {
    const withBudget = object.budget_optimize_on === true;
    return {
      level,
      ...common(object, 'campaign_id', 'campaign_name'),
      objective: objectiveOf(String(object.objective_type)),
      ...budgets(object, currency),
      currency,
      bidStrategy: withBudget ? 'LOWEST_COST_WITHOUT_CAP' : null,
      specialAdCategories: ((object.special_industries as string[] | undefined) ?? []) as Array<Schemas['AdSpecialAdCategory']>,
      specialAdCategoryCountries: [],
      // TikTok's ad groups never share budgets: false without a campaign budget, as the interface asks.
      isAdsetBudgetSharingEnabled: withBudget ? null : false,
      startTime: null,
      stopTime: null,
    };
  }
  if (level === 'adset') {
    const custom = object.bid_type === 'BID_TYPE_CUSTOM';
    return {
      level,
      ...common(object, 'adgroup_id', 'adgroup_name'),
      campaignId: String(object.campaign_id),
      ...budgets(object, currency),
      currency,
      billingEvent: BILLING_BACK[String(object.billing_event)] ?? 'IMPRESSIONS',
      optimizationGoal: GOALS_BACK[String(object.optimization_goal)] ?? 'IMPRESSIONS',
      bidStrategy: custom ? 'LOWEST_COST_WITH_BID_CAP' : 'LOWEST_COST_WITHOUT_CAP',
      bidAmount: custom ? minor(object.bid_price, currency) : null,
      targeting: targetingOf(object, countryIds),
      promotedObject: null,
      dsaBeneficiary: null,
      dsaPayor: null,
      startTime: isoTime(String(object.schedule_start_time)),
      endTime: object.schedule_end_time ? isoTime(String(object.schedule_end_time)) : null,
    } as AdTreeObject;
  }
  const utm = (object.utm_params as Array<{ key: string; value: string }> | undefined) ?? [];
  return {
    level,
    ...common(object, 'ad_id', 'ad_name'),
    campaignId: String(object.campaign_id),
    adsetId: String(object.adgroup_id),
    // No standalone creatives on TikTok: an ad's creative is its video (or first image) in the advertiser's library.
    // A Spark ad shows a post, not a video of the library: its item id.
    creativeId: String(object.video_id ?? object.tiktok_item_id ?? (object.image_ids as string[] | undefined)?.[0] ?? ''),
    urlTags: utm.length ? new URLSearchParams(utm.map(({ key, value }) => [key, value])).toString() : null,
    previewUrl: null,
  };
}
