import { type AdGroup, type Campaign, decimalsOf, GOALS, MIN_BUDGET, OBJECTIVES, parseApiTime } from './campaign-tree.js';

/**
 * The Business API's checks of what a create or an update of the campaign tree sends: each failure is the message of
 * a 40002 (`field: reason`), as the platform words them; null when all is well.
 */
type Body = Record<string, unknown>;

const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const AGE_GROUPS = ['AGE_13_17', 'AGE_18_24', 'AGE_25_34', 'AGE_35_44', 'AGE_45_54', 'AGE_55_100'];

export const isName = (value: unknown) => typeof value === 'string' && value.trim().length > 0 && value.length <= 512;
export const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

/** An amount in the currency: a positive number with no more decimals than the currency has. */
function amount(value: unknown, currency: string): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  const [, fraction = ''] = String(value).split('.');
  return fraction.length <= decimalsOf(currency) ? value : null;
}

const minimums = (currency: string) => MIN_BUDGET[currency] ?? MIN_BUDGET.USD!;

/** A campaign's budget (mode and amount), and its objective on create. */
export function campaignRefusal(body: Body, currency: string, creating: boolean): string | null {
  if (creating && !OBJECTIVES.includes(body.objective_type as (typeof OBJECTIVES)[number]))
    return `objective_type: Must be one of ${OBJECTIVES.join(', ')}.`;
  if ((creating || body.campaign_name !== undefined) && !isName(body.campaign_name)) return 'campaign_name: Length must be 1-512.';
  const mode = body.budget_mode ?? 'BUDGET_MODE_INFINITE';
  if (!['BUDGET_MODE_INFINITE', 'BUDGET_MODE_DAY', 'BUDGET_MODE_TOTAL'].includes(mode as string))
    return 'budget_mode: Must be one of BUDGET_MODE_INFINITE, BUDGET_MODE_DAY, BUDGET_MODE_TOTAL.';
  if (creating && body.budget_optimize_on === true && mode === 'BUDGET_MODE_INFINITE')
    return 'budget_mode: Campaign budget optimization needs a daily or total budget.';
  if (body.special_industries !== undefined) {
    const known = ['HOUSING', 'EMPLOYMENT', 'CREDIT'];
    if (!strings(body.special_industries) || body.special_industries.some((s) => !known.includes(s)))
      return `special_industries: Must be a list of ${known.join(', ')}.`;
  }
  if (mode === 'BUDGET_MODE_INFINITE' && (!creating || body.budget === undefined)) return null;
  const budget = amount(body.budget, currency);
  if (budget === null) return `budget: Must be a positive amount with at most ${decimalsOf(currency)} decimals.`;
  const least = minimums(currency).campaign;
  if (budget < least) return `budget: The campaign budget must be at least ${least} ${currency}.`;
  return null;
}

/** An ad group's placement, audience, schedule, goal and bid; its budget against its campaign's. */
export function adgroupRefusal(body: Body, campaign: Campaign, currency: string, creating: boolean, current?: AdGroup): string | null {
  if ((creating || body.adgroup_name !== undefined) && !isName(body.adgroup_name)) return 'adgroup_name: Length must be 1-512.';
  if (creating) {
    const placement = body.placement_type ?? 'PLACEMENT_TYPE_AUTOMATIC';
    if (!['PLACEMENT_TYPE_AUTOMATIC', 'PLACEMENT_TYPE_NORMAL'].includes(placement as string))
      return 'placement_type: Must be PLACEMENT_TYPE_AUTOMATIC or PLACEMENT_TYPE_NORMAL.';
    if (placement === 'PLACEMENT_TYPE_NORMAL' && (!strings(body.placements) || body.placements.length === 0))
      return 'placements: Required when placement_type is PLACEMENT_TYPE_NORMAL.';
    const goals = GOALS[campaign.objective_type] ?? {};
    const goal = body.optimization_goal as string;
    if (!Object.hasOwn(goals, goal)) return `optimization_goal: ${campaign.objective_type} takes ${Object.keys(goals).join(', ')}.`;
    if (!goals[goal]!.includes(body.billing_event as string)) return `billing_event: ${goal} is billed by ${goals[goal]!.join(', ')}.`;
    const bid = body.bid_type ?? 'BID_TYPE_NO_BID';
    if (!['BID_TYPE_NO_BID', 'BID_TYPE_CUSTOM'].includes(bid as string)) return 'bid_type: Must be BID_TYPE_NO_BID or BID_TYPE_CUSTOM.';
    if (bid === 'BID_TYPE_CUSTOM' && amount(body.bid_price, currency) === null) return 'bid_price: Required with BID_TYPE_CUSTOM.';
  }
  if ((creating || body.location_ids !== undefined) && (!strings(body.location_ids) || body.location_ids.length === 0))
    return 'location_ids: At least one location is required.';
  if (body.age_groups !== undefined && (!strings(body.age_groups) || body.age_groups.some((a) => !AGE_GROUPS.includes(a))))
    return `age_groups: Must be a list of ${AGE_GROUPS.join(', ')}.`;
  if (body.gender !== undefined && !['GENDER_UNLIMITED', 'GENDER_MALE', 'GENDER_FEMALE'].includes(body.gender as string))
    return 'gender: Must be GENDER_UNLIMITED, GENDER_MALE or GENDER_FEMALE.';
  for (const list of ['languages', 'interest_category_ids'] as const)
    if (body[list] !== undefined && !strings(body[list])) return `${list}: Must be a list of ids.`;
  if (body.bid_price !== undefined && amount(body.bid_price, currency) === null) return 'bid_price: Must be a positive amount.';
  return scheduleRefusal(body, creating, current) ?? adgroupBudgetRefusal(body, campaign, currency, creating, current);
}

function scheduleRefusal(body: Body, creating: boolean, current?: AdGroup): string | null {
  const type = body.schedule_type ?? current?.schedule_type ?? 'SCHEDULE_FROM_NOW';
  if (!['SCHEDULE_START_END', 'SCHEDULE_FROM_NOW'].includes(type as string))
    return 'schedule_type: Must be SCHEDULE_START_END or SCHEDULE_FROM_NOW.';
  for (const field of ['schedule_start_time', 'schedule_end_time'] as const)
    if (body[field] !== undefined && (typeof body[field] !== 'string' || !TIME.test(body[field])))
      return `${field}: Must be YYYY-MM-DD HH:MM:SS (UTC).`;
  if (creating && body.schedule_start_time === undefined) return 'schedule_start_time: Required.';
  const start = (body.schedule_start_time ?? current?.schedule_start_time) as string;
  const end = (body.schedule_end_time ?? current?.schedule_end_time) as string | null | undefined;
  if (type === 'SCHEDULE_START_END' && !end) return 'schedule_end_time: Required with SCHEDULE_START_END.';
  if (end && parseApiTime(end) <= parseApiTime(start)) return 'schedule_end_time: Must be after schedule_start_time.';
  return null;
}

/** One budget level under campaign budget optimisation; otherwise the ad group's own, at least the minimum a day. */
function adgroupBudgetRefusal(body: Body, campaign: Campaign, currency: string, creating: boolean, current?: AdGroup): string | null {
  if (campaign.budget_optimize_on) {
    return body.budget === undefined ? null : 'budget: The campaign has budget optimization on: its ad groups take no budget.';
  }
  if (!creating && body.budget === undefined) return null;
  const mode = body.budget_mode ?? current?.budget_mode;
  if (!['BUDGET_MODE_DAY', 'BUDGET_MODE_TOTAL'].includes(mode as string))
    return 'budget_mode: Must be BUDGET_MODE_DAY or BUDGET_MODE_TOTAL.';
  const budget = amount(body.budget, currency);
  if (budget === null) return `budget: Must be a positive amount with at most ${decimalsOf(currency)} decimals.`;
  const perDay = minimums(currency).adgroup;
  if (mode === 'BUDGET_MODE_DAY')
    return budget < perDay ? `budget: The ad group daily budget must be at least ${perDay} ${currency}.` : null;
  const start = (body.schedule_start_time ?? current?.schedule_start_time) as string;
  const end = (body.schedule_end_time ?? current?.schedule_end_time) as string | null;
  if (!end) return 'budget_mode: A total budget needs schedule_type SCHEDULE_START_END.';
  const days = Math.max(1, Math.ceil((parseApiTime(end) - parseApiTime(start)) / 86_400_000));
  return budget < perDay * days ? `budget: The ad group total budget must be at least ${perDay * days} ${currency} (${days} days).` : null;
}

/** One creative of `ad/create` or `ad/update` (an update names its `ad_id` and what changes). */
export function creativeRefusal(creative: Body, creating: boolean): string | null {
  if ((creating || creative.ad_name !== undefined) && !isName(creative.ad_name)) return 'creatives.ad_name: Length must be 1-512.';
  // A Spark ad's video and caption are its post's.
  const spark = creative.tiktok_item_id !== undefined;
  if (creating) {
    if (!['SINGLE_VIDEO', 'SINGLE_IMAGE'].includes(creative.ad_format as string))
      return 'creatives.ad_format: Must be SINGLE_VIDEO or SINGLE_IMAGE.';
    if (spark && (creative.ad_format !== 'SINGLE_VIDEO' || typeof creative.tiktok_item_id !== 'string'))
      return 'creatives.tiktok_item_id: A Spark ad is a SINGLE_VIDEO of one post id.';
    if (creative.ad_format === 'SINGLE_VIDEO' && !spark && typeof creative.video_id !== 'string')
      return 'creatives.video_id: Required for SINGLE_VIDEO.';
    if (creative.ad_format === 'SINGLE_IMAGE' && (!strings(creative.image_ids) || creative.image_ids.length === 0))
      return 'creatives.image_ids: Required for SINGLE_IMAGE.';
  }
  if (((creating && !spark) || creative.ad_text !== undefined) && (typeof creative.ad_text !== 'string' || creative.ad_text.length === 0))
    return 'creatives.ad_text: Required, 1-100 characters.';
  if (typeof creative.ad_text === 'string' && [...creative.ad_text].length > 100) return 'creatives.ad_text: At most 100 characters.';
  if (creative.landing_page_url !== undefined && !/^https?:\/\/\S+$/.test(String(creative.landing_page_url)))
    return 'creatives.landing_page_url: Must be an http(s) URL.';
  return null;
}
