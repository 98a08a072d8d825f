import { currencyExponent, moneyText } from '../../lib/money.js';
import {
  BID_AMOUNT_STRATEGIES,
  billingFits,
  EU_COUNTRIES,
  GOALS_BY_OBJECTIVE,
  minimumDailyBudget,
  PROMOTED_OBJECT_NEEDS,
  TREE_SUBCODES,
} from '../../platforms/social-network/ad-rules.js';
import type { AdObject } from './ad-objects.js';
import type { AdAccount } from './state.js';

/** A refusal as the Marketing API words it: code 100 "Invalid parameter", a subcode, a title and words for a person. */
export interface MarketingRefusal {
  subcode?: number;
  title: string;
  message: string;
}

const refusal = (subcode: number | undefined, title: string, message: string): MarketingRefusal => ({ subcode, title, message });

/** The Graph's targeting spec as ad sets carry it (the members the sandbox looks at). */
export interface GraphTargeting {
  geo_locations?: { countries?: string[]; regions?: unknown[]; cities?: unknown[]; zips?: unknown[] };
  age_min?: number;
  age_max?: number;
  genders?: number[];
  flexible_spec?: Array<{ interests?: unknown[] }>;
  interests?: unknown[];
  custom_audiences?: unknown[];
  excluded_custom_audiences?: unknown[];
  locales?: unknown[];
  targeting_automation?: { advantage_audience?: number };
}

/** A JSON parameter (arrays and objects travel as JSON text in the Graph's forms); undefined when absent or not JSON. */
export function jsonParam<T>(value: string | undefined): T | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    return JSON.parse(value) as T;
  } catch {
    return undefined;
  }
}

const amount = (value: string | undefined) => (value === undefined || value === '' ? undefined : Number(value));

function budgetTooLow(budget: number | undefined, account: AdAccount, billingEvent?: string): MarketingRefusal | null {
  if (budget === undefined) return null;
  const minimum = minimumDailyBudget(account.currency, currencyExponent(account.currency), billingEvent);
  if (budget >= minimum) return null;
  return refusal(
    TREE_SUBCODES.budgetTooLow,
    'Your Budget Is Too Low',
    `The daily budget must be at least ${moneyText(minimum, account.currency)} for this billing event.`,
  );
}

/** A new campaign's refusal, in the order the platform checks; null when it may be created. */
export function campaignRefusal(p: Record<string, string>, account: AdAccount): MarketingRefusal | null {
  if (!p.name) return refusal(undefined, 'Missing Name', 'The parameter name is required.');
  if (!(p.objective! in GOALS_BY_OBJECTIVE)) return refusal(undefined, 'Invalid Objective', 'The parameter objective is invalid.');
  const categories = jsonParam<string[]>(p.special_ad_categories);
  if (!Array.isArray(categories))
    return refusal(undefined, 'Special Ad Categories Required', 'The parameter special_ad_categories is required: [] for none.');
  const real = categories.filter((category) => category !== 'NONE');
  if (real.length > 0 && (jsonParam<string[]>(p.special_ad_category_country) ?? []).length === 0)
    return refusal(
      TREE_SUBCODES.specialAdCategoryCountry,
      'Special Ad Category Country Required',
      'Campaigns with a special ad category must name the countries it is declared for (special_ad_category_country).',
    );
  const daily = amount(p.daily_budget);
  const lifetime = amount(p.lifetime_budget);
  if (daily !== undefined && lifetime !== undefined)
    return refusal(undefined, 'Only One Budget', 'Set either a daily or a lifetime budget, not both.');
  if (daily === undefined && lifetime === undefined) {
    if (p.is_adset_budget_sharing_enabled !== 'true' && p.is_adset_budget_sharing_enabled !== 'false')
      return refusal(
        TREE_SUBCODES.budgetSharingMissing,
        'Budget Sharing Setting Required',
        'A campaign without a campaign budget must set is_adset_budget_sharing_enabled to true or false.',
      );
    if (p.is_adset_budget_sharing_enabled === 'true' && p.bid_strategy && p.bid_strategy !== 'LOWEST_COST_WITHOUT_CAP')
      return refusal(
        TREE_SUBCODES.budgetSharingWithoutBidStrategy,
        'Budget Sharing Needs Lowest Cost',
        'Ad set budget sharing works only with the lowest-cost bid strategy.',
      );
  }
  return budgetTooLow(daily, account);
}

const narrowed = (t: GraphTargeting) =>
  (t.age_min !== undefined && t.age_min !== 18) ||
  (t.age_max !== undefined && t.age_max !== 65) ||
  (t.genders ?? []).length > 0 ||
  (t.interests ?? []).length > 0 ||
  (t.flexible_spec ?? []).length > 0 ||
  (t.custom_audiences ?? []).length > 0 ||
  (t.excluded_custom_audiences ?? []).length > 0 ||
  (t.locales ?? []).length > 0;

/** The targeting's refusal under a campaign (special categories) and the v23 Advantage+ audience rules. */
export function targetingRefusal(t: GraphTargeting, campaign: AdObject, p: Record<string, string>): MarketingRefusal | null {
  const categories = (campaign.fields.special_ad_categories as string[] | undefined) ?? [];
  if (categories.some((category) => category !== 'NONE') && ((t.genders ?? []).length > 0 || narrowedAge(t)))
    return refusal(
      TREE_SUBCODES.specialCategoryTargeting,
      'Targeting Not Allowed',
      'Ad sets of a campaign with a special ad category cannot narrow the audience by age or gender.',
    );
  const advantage = t.targeting_automation?.advantage_audience;
  if (advantage === undefined && narrowed(t))
    return refusal(
      TREE_SUBCODES.advantageAudienceMissing,
      'Advantage+ Audience Setting Required',
      'Targeting that narrows the audience must set targeting_automation.advantage_audience to 0 or 1.',
    );
  if (advantage === 1 && ((t.age_max !== undefined && t.age_max < 65) || (t.age_min !== undefined && t.age_min > 25)))
    return refusal(
      TREE_SUBCODES.advantageAudienceAge,
      'Age Range Too Narrow For Advantage+ Audience',
      'With Advantage+ audience the maximum age must be 65 and the minimum age at most 25.',
    );
  const countries = t.geo_locations?.countries ?? [];
  if (countries.some((country) => EU_COUNTRIES.has(country)) && (!p.dsa_beneficiary || !p.dsa_payor))
    return refusal(
      TREE_SUBCODES.dsaMissing,
      'Beneficiary And Payer Required',
      'Ad sets reaching people in the EU must name who benefits from the ads and who pays for them (dsa_beneficiary, dsa_payor).',
    );
  return null;
}

const narrowedAge = (t: GraphTargeting) => (t.age_min !== undefined && t.age_min !== 18) || (t.age_max !== undefined && t.age_max !== 65);

/** A new ad set's refusal under its campaign; null when it may be created. */
export function adsetRefusal(p: Record<string, string>, campaign: AdObject, account: AdAccount): MarketingRefusal | null {
  if (!p.name) return refusal(undefined, 'Missing Name', 'The parameter name is required.');
  const objective = campaign.fields.objective as keyof typeof GOALS_BY_OBJECTIVE;
  const goal = p.optimization_goal ?? '';
  if (!GOALS_BY_OBJECTIVE[objective]?.includes(goal))
    return refusal(
      TREE_SUBCODES.goalForObjective,
      'Optimization Goal Not Available',
      `The optimization goal ${goal || '(none)'} cannot be used with the objective ${objective}.`,
    );
  const billing = p.billing_event ?? '';
  if (!billingFits(billing, goal))
    return refusal(
      TREE_SUBCODES.billingForGoal,
      'Billing Event Not Available',
      `The billing event ${billing || '(none)'} cannot be used with the optimization goal ${goal}.`,
    );
  const daily = amount(p.daily_budget);
  const lifetime = amount(p.lifetime_budget);
  const campaignBudget = campaign.fields.daily_budget !== undefined || campaign.fields.lifetime_budget !== undefined;
  if (campaignBudget && (daily !== undefined || lifetime !== undefined))
    return refusal(
      TREE_SUBCODES.budgetAtBothLevels,
      'Budget At Both Levels',
      'The campaign has a campaign budget: its ad sets cannot have budgets of their own.',
    );
  if (!campaignBudget && daily === undefined && lifetime === undefined)
    return refusal(TREE_SUBCODES.noBudget, 'Budget Required', 'Set a daily or lifetime budget on the ad set or on its campaign.');
  if (lifetime !== undefined && !p.end_time)
    return refusal(TREE_SUBCODES.lifetimeBudgetWithoutEnd, 'End Time Required', 'An ad set with a lifetime budget needs an end_time.');
  const strategy = p.bid_strategy ?? (campaign.fields.bid_strategy as string | undefined);
  if (strategy && BID_AMOUNT_STRATEGIES.includes(strategy) && !p.bid_amount)
    return refusal(TREE_SUBCODES.bidAmountMissing, 'Bid Amount Required', `The bid strategy ${strategy} needs a bid_amount.`);
  const needs = PROMOTED_OBJECT_NEEDS[goal];
  if (needs && !jsonParam<Record<string, unknown>>(p.promoted_object)?.[needs])
    return refusal(
      TREE_SUBCODES.promotedObjectMissing,
      'Promoted Object Required',
      `The optimization goal ${goal} needs promoted_object.${needs}.`,
    );
  const targeting = jsonParam<GraphTargeting>(p.targeting);
  if (!targeting?.geo_locations) return refusal(undefined, 'Targeting Required', 'The parameter targeting with geo_locations is required.');
  return targetingRefusal(targeting, campaign, p) ?? budgetTooLow(daily, account, billing);
}
