import {
  type AdCampaignInput,
  type AdInput,
  type AdObjectChange,
  AdRefused,
  type AdSetInput,
  type AdTargeting,
} from '../capabilities/ad-campaigns.js';
import { fromMinorUnits } from '../../lib/money.js';
import { ageGroups, apiTime, genderOf, GOALS, INDUSTRIES, MIN_BUDGETS, OBJECTIVE_TYPES, type Listed } from './campaign-mapping.js';

/**
 * What the Business API is sent for a create or a change of the campaign tree, and the platform's rules checked
 * before anything is sent (each broken one an `AdRefused` naming our member): one budget level (campaign budget
 * optimisation, or budgets per ad group), objective ↔ optimisation goal ↔ billing event, minimum budgets in the
 * advertiser's currency, what TikTok does not have (campaign schedules, archiving, other bid strategies).
 */
type Body = Record<string, unknown>;

/** Minor units as the decimal number the API takes (5000 EUR → 50, 1999 → 19.99, 5000 JPY → 5000). */
export const decimal = (minor: number, currency: string) => Number(fromMinorUnits(minor, currency));

const switched = (status: 'ACTIVE' | 'PAUSED') => (status === 'ACTIVE' ? 'ENABLE' : 'DISABLE');

function atLeast(minor: number, currency: string, level: 'campaign' | 'adgroup', days: number, field: string): void {
  const least = MIN_BUDGETS[currency]?.[level];
  if (least !== undefined && decimal(minor, currency) < least * days)
    throw new AdRefused(
      field,
      `short_video_ads takes ${level === 'adgroup' ? 'an ad group' : 'a campaign'} budget of at least ${least * days} ${currency}${days > 1 ? ` (${least} a day for ${days} days)` : ''}.`,
    );
}

export function campaignBody(input: AdCampaignInput, currency: string): Body {
  if (input.startTime || input.stopTime)
    throw new AdRefused(
      input.startTime ? 'startTime' : 'stopTime',
      'short_video_ads campaigns have no schedule: set it on their ad groups.',
    );
  if (input.dailyBudget !== undefined && input.lifetimeBudget !== undefined)
    throw new AdRefused('lifetimeBudget', 'A campaign has a daily or a lifetime budget, not both.');
  if (input.bidStrategy && input.bidStrategy !== 'LOWEST_COST_WITHOUT_CAP')
    throw new AdRefused('bidStrategy', 'short_video_ads campaign budgets bid at the lowest cost only (LOWEST_COST_WITHOUT_CAP).');
  const industries = input.specialAdCategories.map((category) => {
    const industry = INDUSTRIES[category];
    if (!industry)
      throw new AdRefused(
        'specialAdCategories',
        `short_video_ads has no special ad category ${category} (only HOUSING, EMPLOYMENT, CREDIT).`,
      );
    return industry;
  });
  const budget = input.dailyBudget ?? input.lifetimeBudget;
  if (budget !== undefined) atLeast(budget, currency, 'campaign', 1, input.dailyBudget !== undefined ? 'dailyBudget' : 'lifetimeBudget');
  return {
    campaign_name: input.name,
    objective_type: OBJECTIVE_TYPES[input.objective],
    operation_status: switched(input.status),
    special_industries: industries,
    // A campaign budget is campaign budget optimisation: its ad groups share it and have none of their own.
    ...(budget === undefined
      ? { budget_mode: 'BUDGET_MODE_INFINITE' }
      : {
          budget_mode: input.dailyBudget !== undefined ? 'BUDGET_MODE_DAY' : 'BUDGET_MODE_TOTAL',
          budget: decimal(budget, currency),
          budget_optimize_on: true,
        }),
  };
}

/** An ad group's targeting members; `countryIds` gives each ISO country's location id on the platform. */
export function targetingBody(targeting: AdTargeting, countryIds: Map<string, string>): Body {
  const geo = targeting.geoLocations;
  const countries = (geo.countries ?? []).map((code) => {
    const id = countryIds.get(code);
    if (!id) throw new AdRefused('targeting.geoLocations.countries', `short_video_ads cannot target ${code}.`);
    return id;
  });
  const keys = [...(geo.regions ?? []), ...(geo.cities ?? []), ...(geo.zips ?? [])].map((location) => location.key);
  if ((geo.cities ?? []).some((city) => city.radius))
    throw new AdRefused('targeting.geoLocations.cities', 'short_video_ads targets whole cities: a radius is not possible.');
  return {
    location_ids: [...countries, ...keys],
    ...(targeting.ageMin !== undefined || targeting.ageMax !== undefined ? { age_groups: ageGroups(targeting) } : {}),
    gender: genderOf(targeting),
    interest_category_ids: (targeting.interests ?? []).map((interest) => interest.id),
    audience_ids: targeting.customAudiences ?? [],
    excluded_audience_ids: targeting.excludedCustomAudiences ?? [],
    languages: (targeting.locales ?? []).map((locale) => locale.slice(0, locale.indexOf('-') === -1 ? undefined : locale.indexOf('-'))),
  };
}

/** A bid: no bid (lowest cost), or a bid cap (`bidAmount`). */
function bidBody(strategy: string | undefined, amount: number | null | undefined, currency: string): Body {
  if (!strategy || strategy === 'LOWEST_COST_WITHOUT_CAP') return { bid_type: 'BID_TYPE_NO_BID' };
  if (strategy !== 'LOWEST_COST_WITH_BID_CAP')
    throw new AdRefused('bidStrategy', 'short_video_ads bids at the lowest cost or with a bid cap (LOWEST_COST_WITH_BID_CAP).');
  if (!amount) throw new AdRefused('bidAmount', 'A bid cap needs bidAmount.');
  return { bid_type: 'BID_TYPE_CUSTOM', bid_price: decimal(amount, currency) };
}

/** An ad group under `campaign` (as `campaign/get` lists it). */
export function adgroupBody(input: AdSetInput, campaign: Listed, currency: string, countryIds: Map<string, string>): Body {
  const goals = GOALS[String(campaign.objective_type)] ?? {};
  const goal = goals[input.optimizationGoal];
  if (!goal)
    throw new AdRefused(
      'optimizationGoal',
      `A ${String(campaign.objective_type)} campaign on short_video_ads optimises for ${Object.keys(goals).join(', ') || 'nothing settable'}.`,
    );
  const billing = goal.billing[input.billingEvent];
  if (!billing)
    throw new AdRefused(
      'billingEvent',
      `${input.optimizationGoal} on short_video_ads is billed by ${Object.keys(goal.billing).join(', ')}.`,
    );
  if (input.promotedObject) throw new AdRefused('promotedObject', 'short_video_ads ad groups take no promoted object here.');
  const budget = input.dailyBudget ?? input.lifetimeBudget;
  const field = input.dailyBudget !== undefined ? 'dailyBudget' : 'lifetimeBudget';
  if (input.dailyBudget !== undefined && input.lifetimeBudget !== undefined)
    throw new AdRefused('lifetimeBudget', 'An ad group has a daily or a lifetime budget, not both.');
  if (campaign.budget_optimize_on === true && budget !== undefined)
    throw new AdRefused(field, 'The campaign has a budget its ad groups share: an ad group takes no budget of its own.');
  if (campaign.budget_optimize_on !== true && budget === undefined)
    throw new AdRefused('dailyBudget', 'The campaign has no budget: the ad group needs a daily or a lifetime budget.');
  if (input.lifetimeBudget !== undefined && !input.endTime) throw new AdRefused('endTime', 'A lifetime budget needs an end time.');
  const start = input.startTime ? new Date(input.startTime) : new Date();
  if (budget !== undefined) {
    const days =
      input.lifetimeBudget === undefined ? 1 : Math.max(1, Math.ceil((Date.parse(input.endTime!) - start.getTime()) / 86_400_000));
    atLeast(budget, currency, 'adgroup', days, field);
  }
  return {
    campaign_id: String(campaign.campaign_id),
    adgroup_name: input.name,
    operation_status: switched(input.status),
    placement_type: 'PLACEMENT_TYPE_AUTOMATIC',
    ...targetingBody(input.targeting, countryIds),
    ...(budget === undefined
      ? {}
      : { budget_mode: input.dailyBudget !== undefined ? 'BUDGET_MODE_DAY' : 'BUDGET_MODE_TOTAL', budget: decimal(budget, currency) }),
    schedule_type: input.endTime ? 'SCHEDULE_START_END' : 'SCHEDULE_FROM_NOW',
    schedule_start_time: apiTime(start.toISOString()),
    ...(input.endTime ? { schedule_end_time: apiTime(input.endTime) } : {}),
    optimization_goal: goal.goal,
    billing_event: billing,
    ...bidBody(input.bidStrategy, input.bidAmount, currency),
  };
}

/** Who an ad shows itself as: the advertiser's custom identity (`CUSTOMIZED_USER`). */
export interface AdIdentity {
  id: string;
  type: 'CUSTOMIZED_USER';
}

/** UTM tags as TikTok keeps them, key by key. */
const utmParams = (urlTags: string) => [...new URLSearchParams(urlTags)].map(([key, value]) => ({ key, value }));

/**
 * What an ad's creative shows, when it is not a Spark ad: `creativeId` names the video in the advertiser's library
 * (TikTok has no standalone creative), and the ad's text (which TikTok requires) is its name, cut to TikTok's 100
 * characters. It shows itself as `identity` (TikTok requires one for every ad that is not a Spark ad).
 */
export function libraryVideo(input: AdInput, identity: AdIdentity): Body {
  return {
    video_id: input.creativeId,
    identity_id: identity.id,
    identity_type: identity.type,
    ad_text: [...input.name].slice(0, 100).join(''),
  };
}

/** An ad of one creative showing `shown` (`libraryVideo`, or a Spark ad's post). */
export function adBody(input: AdInput, shown: Body): Body {
  return {
    adgroup_id: input.adsetId,
    operation_status: switched(input.status),
    creatives: [
      {
        ad_name: input.name,
        ad_format: 'SINGLE_VIDEO',
        ...shown,
        ...(input.urlTags ? { utm_params: utmParams(input.urlTags) } : {}),
      },
    ],
  };
}

/** A change's members as the level's `update` takes them (the status is `status/update`'s); `current` as listed. */
export function changeBody(
  level: 'campaign' | 'adset' | 'ad',
  change: AdObjectChange,
  current: Listed,
  currency: string,
  countryIds: Map<string, string>,
): Body {
  if (change.status === 'ARCHIVED') throw new AdRefused('status', 'short_video_ads has no archive: pause or delete the object.');
  if (change.bidStrategy && level !== 'adset') throw new AdRefused('bidStrategy', 'short_video_ads bids are set on ad groups.');
  if (change.stopTime !== undefined)
    throw new AdRefused('stopTime', 'short_video_ads campaigns have no schedule: set it on their ad groups.');
  const budget = change.dailyBudget ?? change.lifetimeBudget;
  if (budget !== undefined) {
    const field = change.dailyBudget !== undefined ? 'dailyBudget' : 'lifetimeBudget';
    const mode = change.dailyBudget !== undefined ? 'BUDGET_MODE_DAY' : 'BUDGET_MODE_TOTAL';
    if (level === 'ad' || current.budget_mode !== mode)
      throw new AdRefused(
        field,
        `The ${level} has ${current.budget_mode === 'BUDGET_MODE_DAY' ? 'a daily budget' : current.budget_mode === 'BUDGET_MODE_TOTAL' ? 'a lifetime budget' : 'no budget of its own'}: only that can change.`,
      );
    atLeast(budget, currency, level === 'campaign' ? 'campaign' : 'adgroup', 1, field);
  }
  const name = change.name === undefined ? {} : { [level === 'adset' ? 'adgroup_name' : `${level}_name`]: change.name };
  const money = budget === undefined ? {} : { budget: decimal(budget, currency) };
  if (level === 'campaign') return { ...name, ...money };
  if (level === 'adset') {
    return {
      ...name,
      ...money,
      ...(change.targeting ? targetingBody(change.targeting, countryIds) : {}),
      ...(change.bidStrategy !== undefined || change.bidAmount !== undefined
        ? bidBody(
            change.bidStrategy ?? (change.bidAmount === null ? 'LOWEST_COST_WITHOUT_CAP' : 'LOWEST_COST_WITH_BID_CAP'),
            change.bidAmount,
            currency,
          )
        : {}),
      ...(change.endTime === undefined
        ? {}
        : change.endTime === null
          ? { schedule_type: 'SCHEDULE_FROM_NOW', schedule_end_time: null }
          : { schedule_type: 'SCHEDULE_START_END', schedule_end_time: apiTime(change.endTime) }),
    };
  }
  return {
    ...(change.name === undefined ? {} : { ad_name: change.name }),
    ...(change.creativeId === undefined ? {} : { video_id: change.creativeId }),
    ...(change.urlTags === undefined ? {} : { utm_params: change.urlTags === null ? [] : utmParams(change.urlTags) }),
  };
}
